// vis_set.cpp - interval sweeps over visibility sets ----------------------//
#include "compiler/sync/vis_set.h"

#include <algorithm>

namespace exgc::sync {

Masks augment_masks(const SyncTl &l2) {
  Masks m;
  m.f[Atom] = m.f[Full] = m.f[Issue] = l2.full;
  m.f[Temp] = l2.full | l2.temp;
  return m;
}

namespace {
void push_merged(VisSet::Segs &out, uint64_t lo, uint64_t hi, const Masks &m) {
  if (lo >= hi || !m.any())
    return;
  if (!out.empty() && out.back().hi == lo && out.back().m == m) {
    out.back().hi = hi;
    return;
  }
  out.push_back({lo, hi, m});
}
} // namespace

bool VisSet::add(const ThreadSet &threads, const Masks &m) {
  if (threads.empty() || !m.any())
    return false;
  // Fast check: nothing new when every touched segment already holds m.
  const auto &iv = threads.intervals();
  if (segs_.empty()) {
    for (const Interval &i : iv)
      segs_.push_back({i.lo, i.hi, m});
    return true;
  }
  // One walk decides whether anything is new and whether the intervals are
  // exact unions of segments (no gap, no segment sticking out); then the
  // masks can be or-ed in place, with no new boundary.
  bool changed = false, aligned = true;
  {
    size_t s = 0;
    for (const Interval &i : iv) {
      uint64_t pos = i.lo;
      while (s < segs_.size() && segs_[s].hi <= pos)
        ++s;
      size_t k = s;
      if (k == segs_.size() || segs_[k].lo != pos)
        aligned = false;
      while (pos < i.hi) {
        if (k == segs_.size() || segs_[k].lo > pos) {
          changed = true;
          aligned = false;
          break;
        }
        const Masks &sm = segs_[k].m;
        for (int f = 0; f < kNumFlags; ++f)
          if ((sm.f[f] | m.f[f]) != sm.f[f])
            changed = true;
        pos = segs_[k].hi;
        ++k;
      }
      if (pos != i.hi)
        aligned = false;
      if (changed && !aligned)
        break;
    }
  }
  if (!changed)
    return false;
  if (aligned) {
    size_t s = 0;
    for (const Interval &i : iv) {
      while (segs_[s].lo < i.lo)
        ++s;
      for (; s < segs_.size() && segs_[s].hi <= i.hi; ++s)
        segs_[s].m |= m;
    }
    // Or-ing may make neighbours equal: merge them.
    size_t w = 0;
    for (size_t r = 1; r < segs_.size(); ++r) {
      if (segs_[w].hi == segs_[r].lo && segs_[w].m == segs_[r].m)
        segs_[w].hi = segs_[r].hi;
      else
        segs_[++w] = segs_[r];
    }
    segs_.resize(static_cast<unsigned>(w + 1));
    return true;
  }
  // Reuse one scratch buffer: the old segments become the next scratch.
  static thread_local Segs out;
  out.clear();
  out.reserve(segs_.size() + 2 * iv.size() + 1);
  size_t s = 0, t = 0;
  uint64_t pos = 0;
  while (s < segs_.size() || t < iv.size()) {
    // Next boundary strictly after pos.
    uint64_t lo_s = s < segs_.size() ? std::max(pos, segs_[s].lo) : UINT64_MAX;
    uint64_t lo_t = t < iv.size() ? std::max(pos, iv[t].lo) : UINT64_MAX;
    uint64_t start = std::min(lo_s, lo_t);
    bool in_s = s < segs_.size() && segs_[s].lo <= start;
    bool in_t = t < iv.size() && iv[t].lo <= start;
    uint64_t end = UINT64_MAX;
    if (in_s)
      end = std::min(end, segs_[s].hi);
    else if (s < segs_.size())
      end = std::min(end, segs_[s].lo);
    if (in_t)
      end = std::min(end, iv[t].hi);
    else if (t < iv.size())
      end = std::min(end, iv[t].lo);
    Masks cur;
    if (in_s)
      cur = segs_[s].m;
    if (in_t)
      cur |= m;
    push_merged(out, start, end, cur);
    pos = end;
    if (s < segs_.size() && segs_[s].hi <= pos)
      ++s;
    if (t < iv.size() && iv[t].hi <= pos)
      ++t;
  }
  segs_.swap(out);
  return true;
}

namespace {
// Calls fn(seg, lo, hi) for each overlap of a segment with the thread set.
template <typename Fn>
bool for_overlaps(const VisSet::Segs &segs, const ThreadSet &threads, Fn fn) {
  size_t s = 0;
  for (const Interval &i : threads.intervals()) {
    while (s < segs.size() && segs[s].hi <= i.lo)
      ++s;
    for (size_t k = s; k < segs.size() && segs[k].lo < i.hi; ++k)
      if (fn(segs[k], std::max(i.lo, segs[k].lo), std::min(i.hi, segs[k].hi)))
        return true;
  }
  return false;
}
} // namespace

bool VisSet::covers(const ThreadSet &threads, QualMask q, int flag) const {
  // Segments are sorted and disjoint: walk each interval through them, and
  // fail at the first gap or segment without the qual.
  size_t s = 0;
  for (const Interval &i : threads.intervals()) {
    uint64_t pos = i.lo;
    while (s < segs_.size() && segs_[s].hi <= pos)
      ++s;
    while (pos < i.hi) {
      if (s == segs_.size() || segs_[s].lo > pos || !(segs_[s].m.f[flag] & q))
        return false;
      pos = segs_[s].hi;
      if (pos < i.hi)
        ++s;
    }
  }
  return true;
}

ThreadSet VisSet::missing(const ThreadSet &threads, QualMask q, int flag) const {
  ThreadSet have;
  for_overlaps(segs_, threads, [&](const Seg &s, uint64_t lo, uint64_t hi) {
    if (s.m.f[flag] & q)
      have.append(lo, hi);
    return false;
  });
  return threads.subtract(have);
}

Masks VisSet::held(const ThreadSet &threads) const {
  Masks m;
  for_overlaps(segs_, threads, [&](const Seg &s, uint64_t, uint64_t) {
    m |= s.m;
    return false;
  });
  return m;
}

Masks VisSet::summary() const {
  Masks m;
  for (const Seg &s : segs_)
    m |= s.m;
  return m;
}

size_t VisSet::hash() const {
  size_t h = 1469598103934665603ull;
  for (const Seg &s : segs_) {
    h = (h ^ s.lo) * 1099511628211ull;
    h = (h ^ s.hi) * 1099511628211ull;
    for (int f = 0; f < kNumFlags; ++f)
      h = (h ^ s.m.f[f]) * 1099511628211ull;
  }
  return h;
}

std::string VisSet::str() const {
  std::string out;
  for (const Seg &s : segs_) {
    out += "[" + std::to_string(s.lo) + ".." + std::to_string(s.hi - 1) + "]";
    for (int f = kNumFlags - 1; f >= 0; --f)
      if (s.m.f[f])
        out += std::string(" ") + flag_name(f) + qual_set_string(s.m.f[f]);
    out += ";";
  }
  return out;
}

} // namespace exgc::sync
