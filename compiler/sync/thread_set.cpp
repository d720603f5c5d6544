// thread_set.cpp - interval-list set operations ---------------------------//
#include "compiler/sync/thread_set.h"

#include <algorithm>

namespace exgc::sync {

ThreadSet ThreadSet::range(uint64_t lo, uint64_t hi) {
  ThreadSet s;
  if (lo < hi)
    s.iv_.push_back({lo, hi});
  return s;
}

void ThreadSet::append(uint64_t lo, uint64_t hi) {
  if (lo >= hi)
    return;
  if (!iv_.empty() && iv_.back().hi >= lo) {
    iv_.back().hi = std::max(iv_.back().hi, hi);
    return;
  }
  iv_.push_back({lo, hi});
}

uint64_t ThreadSet::size() const {
  uint64_t n = 0;
  for (const Interval &i : iv_)
    n += i.hi - i.lo;
  return n;
}

bool ThreadSet::contains(uint64_t t) const {
  const Interval *it = std::upper_bound(iv_.begin(), iv_.end(), t,
                                        [](uint64_t v, const Interval &i) { return v < i.lo; });
  if (it == iv_.begin())
    return false;
  --it;
  return t < it->hi;
}

ThreadSet ThreadSet::intersect(const ThreadSet &o) const {
  ThreadSet r;
  size_t i = 0, j = 0;
  while (i < iv_.size() && j < o.iv_.size()) {
    uint64_t lo = std::max(iv_[i].lo, o.iv_[j].lo);
    uint64_t hi = std::min(iv_[i].hi, o.iv_[j].hi);
    if (lo < hi)
      r.iv_.push_back({lo, hi});
    if (iv_[i].hi < o.iv_[j].hi)
      ++i;
    else
      ++j;
  }
  return r;
}

bool ThreadSet::intersects(const ThreadSet &o) const {
  size_t i = 0, j = 0;
  while (i < iv_.size() && j < o.iv_.size()) {
    if (std::max(iv_[i].lo, o.iv_[j].lo) < std::min(iv_[i].hi, o.iv_[j].hi))
      return true;
    if (iv_[i].hi < o.iv_[j].hi)
      ++i;
    else
      ++j;
  }
  return false;
}

ThreadSet ThreadSet::subtract(const ThreadSet &o) const {
  ThreadSet r;
  size_t j = 0;
  for (Interval cur : iv_) {
    while (j < o.iv_.size() && o.iv_[j].hi <= cur.lo)
      ++j;
    size_t k = j;
    while (k < o.iv_.size() && o.iv_[k].lo < cur.hi) {
      if (o.iv_[k].lo > cur.lo)
        r.append(cur.lo, o.iv_[k].lo);
      cur.lo = std::max(cur.lo, o.iv_[k].hi);
      if (cur.lo >= cur.hi)
        break;
      ++k;
    }
    if (cur.lo < cur.hi)
      r.append(cur.lo, cur.hi);
  }
  return r;
}

ThreadSet ThreadSet::unite(const ThreadSet &o) const {
  ThreadSet r;
  size_t i = 0, j = 0;
  while (i < iv_.size() || j < o.iv_.size()) {
    const Interval &n = (j == o.iv_.size() || (i < iv_.size() && iv_[i].lo <= o.iv_[j].lo))
                            ? iv_[i++]
                            : o.iv_[j++];
    r.append(n.lo, n.hi);
  }
  return r;
}

size_t ThreadSet::hash() const {
  size_t h = 1469598103934665603ull;
  for (const Interval &i : iv_) {
    h = (h ^ i.lo) * 1099511628211ull;
    h = (h ^ i.hi) * 1099511628211ull;
  }
  return h;
}

std::string ThreadSet::str() const {
  if (is_all())
    return "{all}";
  std::string s = "{";
  for (size_t i = 0; i < iv_.size(); ++i) {
    if (i)
      s += ",";
    s += std::to_string(iv_[i].lo);
    if (iv_[i].hi - iv_[i].lo > 1)
      s += ".." + std::to_string(iv_[i].hi - 1);
  }
  return s + "}";
}

ThreadSet ThreadSet::shifted(int64_t d) const {
  ThreadSet r = *this;
  for (Interval &i : r.iv_) {
    i.lo += static_cast<uint64_t>(d);
    i.hi += static_cast<uint64_t>(d);
  }
  return r;
}

} // namespace exgc::sync
