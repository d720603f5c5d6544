// arrive_streams.h - implicit pending entries of fully witnessed records --//
//
// Owns ArriveStreams, the fast engine's record of which Arrives took which
// records into their barrier tokens without writing one pending entry per
// (record, element). A *stream* is the Arrives of one collective with one
// first sync-tl (named by the engine's signature of such an Arrive). A record
// an Arrive of a stream witnesses in full stays witnessed in full by all its
// later Arrives (records only grow), so it *subscribes*: from then on every
// Arrive of the stream on element b would give it the entry (b, count), and
// the oldest entry per element wins (oracle_engine.cpp). Its entry for b is
// therefore the stream's first Arrive on b at or after its subscription. Per
// element, the stream's Arrives cut the subscriber list into segments (those
// subscribed after the previous Arrive on b, up to this one); an Await on b
// with count bound kmax orders the segments whose Arrive's count is <= kmax.
// Augmenting is idempotent and records only grow, so a watermark per (stream,
// awaiting collective, sync-tl) marks a prefix of subscribers already done.
// Arrives on freed elements are forgotten with them.
#ifndef EXGC_SYNC_ARRIVE_STREAMS_H
#define EXGC_SYNC_ARRIVE_STREAMS_H

#include "compiler/sync/quals.h"
#include "compiler/sync/report.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace exgc::sync::fast_detail {

using Ref = std::pair<uint32_t, uint32_t>; // record id, generation

class ArriveStreams {
public:
  /// The index of the next Arrive of `stream`; records that subscribe while
  /// it runs subscribe at that index.
  uint64_t begin_arrive(uint32_t stream) { return streams_[stream].next++; }
  /// Arrive `t` of `stream` was on `bars` with count `k`; kept for Awaits
  /// once the stream has subscribers (earlier Arrives concern nobody).
  void end_arrive(uint32_t stream, uint64_t t, const std::vector<uint64_t> &bars, int64_t k);
  void subscribe(uint32_t stream, uint64_t t, Ref rec) { streams_[stream].subs.push_back({t, rec}); }

  /// Calls `fn(ref)` for each subscriber whose implicit entry on `bar` has a
  /// count <= kmax and that no earlier Await of (who, l2) has augmented; a
  /// subscriber may come up again only where counts on `bar` went down.
  template <typename Fn>
  void due(uint64_t bar, int64_t kmax, const ThreadSetP &who, const SyncTl &l2, Fn fn);

  /// Elements [lo, hi) are freed: their implicit entries go.
  void forget_barriers(uint64_t lo, uint64_t hi);
  /// A subscriber of `stream` at `t` still has an implicit entry (some
  /// element not yet freed was arrived on by the stream at or after t).
  bool pending_after(uint32_t stream, uint64_t t) const;

private:
  struct Mark {
    ThreadSetP who; // kept alive, so that the pointer names one set
    SyncTl l2;
    size_t upto;    // subscribers [0, upto) augmented by (who, l2)
  };
  struct Stream {
    uint64_t next = 0;
    std::vector<std::pair<uint64_t, Ref>> subs; // by subscription index
    std::vector<Mark> marks;
    std::map<uint64_t, uint32_t> live; // Arrive index -> its elements not freed
  };
  struct Arrivals {
    uint32_t stream;
    bool monotone = true;                      // counts never went down
    std::vector<std::pair<uint64_t, int64_t>> at; // (Arrive index, count)
  };
  size_t &watermark(Stream &s, const ThreadSetP &who, const SyncTl &l2);
  // Subscribers of `s` with index <= t.
  static size_t subscribed_by(const Stream &s, uint64_t t);

  std::unordered_map<uint32_t, Stream> streams_;
  std::unordered_map<uint64_t, std::vector<Arrivals>> by_bar_;
};

template <typename Fn>
void ArriveStreams::due(uint64_t bar, int64_t kmax, const ThreadSetP &who, const SyncTl &l2,
                        Fn fn) {
  auto it = by_bar_.find(bar);
  if (it == by_bar_.end())
    return;
  for (const Arrivals &a : it->second) {
    Stream &s = streams_[a.stream];
    size_t &mark = watermark(s, who, l2);
    if (mark >= s.subs.size())
      continue;
    // Segments that end below the watermark have nothing left to do.
    const uint64_t first = s.subs[mark].first;
    size_t j = static_cast<size_t>(
        std::lower_bound(a.at.begin(), a.at.end(), first,
                         [](const std::pair<uint64_t, int64_t> &x, uint64_t v) {
                           return x.first < v;
                         }) -
        a.at.begin());
    bool prefix = true;
    for (; j < a.at.size(); ++j) {
      if (a.at[j].second > kmax) {
        if (a.monotone)
          break; // so are all later ones
        prefix = false;
        continue;
      }
      const size_t lo = j == 0 ? 0 : subscribed_by(s, a.at[j - 1].first);
      const size_t hi = subscribed_by(s, a.at[j].first);
      for (size_t i = std::max(lo, mark); i < hi; ++i)
        fn(s.subs[i].second);
      if (prefix)
        mark = std::max(mark, hi);
    }
  }
}

} // namespace exgc::sync::fast_detail

#endif
