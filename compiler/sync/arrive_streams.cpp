// arrive_streams.cpp - implicit pending entries (arrive_streams.h) --------//
#include "compiler/sync/arrive_streams.h"

namespace exgc::sync::fast_detail {

void ArriveStreams::end_arrive(uint32_t stream, uint64_t t, const std::vector<uint64_t> &bars,
                               int64_t k) {
  Stream &s = streams_[stream];
  if (s.subs.empty())
    return;
  for (uint64_t b : bars) {
    std::vector<Arrivals> &per = by_bar_[b];
    auto a = std::find_if(per.begin(), per.end(),
                          [&](const Arrivals &x) { return x.stream == stream; });
    if (a == per.end()) {
      per.push_back({stream, true, {}});
      a = per.end() - 1;
    }
    if (!a->at.empty() && k < a->at.back().second)
      a->monotone = false;
    a->at.push_back({t, k});
  }
  s.live[t] += static_cast<uint32_t>(bars.size());
}

void ArriveStreams::forget_barriers(uint64_t lo, uint64_t hi) {
  if (by_bar_.empty())
    return;
  for (uint64_t b = lo; b < hi; ++b) {
    auto it = by_bar_.find(b);
    if (it == by_bar_.end())
      continue;
    for (const Arrivals &a : it->second) {
      std::map<uint64_t, uint32_t> &live = streams_[a.stream].live;
      for (const auto &tk : a.at) {
        auto l = live.find(tk.first);
        if (--l->second == 0)
          live.erase(l);
      }
    }
    by_bar_.erase(it);
  }
}

bool ArriveStreams::pending_after(uint32_t stream, uint64_t t) const {
  auto it = streams_.find(stream);
  return it != streams_.end() && it->second.live.lower_bound(t) != it->second.live.end();
}

size_t &ArriveStreams::watermark(Stream &s, const ThreadSetP &who, const SyncTl &l2) {
  for (Mark &m : s.marks)
    if (m.who.get() == who.get() && m.l2 == l2)
      return m.upto;
  s.marks.push_back({who, l2, 0});
  return s.marks.back().upto;
}

size_t ArriveStreams::subscribed_by(const Stream &s, uint64_t t) {
  return static_cast<size_t>(
      std::upper_bound(s.subs.begin(), s.subs.end(), t,
                       [](uint64_t v, const std::pair<uint64_t, Ref> &x) { return v < x.first; }) -
      s.subs.begin());
}

} // namespace exgc::sync::fast_detail
