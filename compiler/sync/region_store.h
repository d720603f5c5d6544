// region_store.h - boxes of elements sharing a record (fast engine) ------//
//
// Owns Region (a box and its assignment record), box arithmetic, and
// RegionStore, the regions of one tensor bucketed by one dimension. Private
// to fast_engine.cpp.
#ifndef EXGC_SYNC_REGION_STORE_H
#define EXGC_SYNC_REGION_STORE_H

#include "compiler/sync/machine.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace exgc::sync::fast_detail {

struct Region {
  Box box;
  uint32_t ar;
};

struct RegionRef {
  int32_t bucket; // -1: overflow
  uint32_t idx;
  bool operator<(const RegionRef &o) const {
    return bucket != o.bucket ? bucket < o.bucket : idx < o.idx;
  }
  bool operator==(const RegionRef &o) const { return bucket == o.bucket && idx == o.idx; }
};

// The regions of one tensor, bucketed on one dimension (the first with more
// than one index, e.g. a ring's slot), so that an access looks only at the
// regions of the slots it touches. Regions spanning buckets go to overflow.
class RegionStore {
public:
  void init(const TensorInfo &t) {
    key_ = -1;
    for (size_t d = 0; d < t.shape.size(); ++d)
      if (t.shape[d] > 1) {
        key_ = static_cast<int>(d);
        break;
      }
    if (key_ < 0)
      return;
    int64_t ext = t.shape[key_];
    width_ = ext <= kMaxBuckets ? 1 : (ext + kMaxBuckets - 1) / kMaxBuckets;
    buckets_.assign(static_cast<size_t>((ext + width_ - 1) / width_), {});
  }
  Region &at(const RegionRef &r) { return r.bucket < 0 ? overflow_[r.idx] : buckets_[r.bucket][r.idx]; }
  template <typename Fn> void query(const Box &b, Fn fn) {
    for (uint32_t i = 0; i < overflow_.size(); ++i)
      if (overlaps(overflow_[i].box, b))
        fn(RegionRef{-1, i});
    if (key_ < 0)
      return;
    int64_t lo = b.lo[key_] / width_, hi = (b.hi[key_] - 1) / width_;
    for (int64_t k = lo; k <= hi; ++k) {
      std::vector<Region> &v = buckets_[k];
      for (uint32_t i = 0; i < v.size(); ++i)
        if (overlaps(v[i].box, b))
          fn(RegionRef{static_cast<int32_t>(k), i});
    }
  }
  void add(Region r) {
    if (key_ >= 0) {
      int64_t lo = r.box.lo[key_] / width_, hi = (r.box.hi[key_] - 1) / width_;
      if (lo == hi) {
        buckets_[lo].push_back(std::move(r));
        return;
      }
    }
    overflow_.push_back(std::move(r));
  }
  /// Removes `refs` (sorted ascending); returns nothing, refs become invalid.
  void remove(const std::vector<RegionRef> &refs) {
    for (size_t k = refs.size(); k-- > 0;) {
      std::vector<Region> &v = refs[k].bucket < 0 ? overflow_ : buckets_[refs[k].bucket];
      v[refs[k].idx] = std::move(v.back());
      v.pop_back();
    }
  }
  template <typename Fn> void for_each(Fn fn) {
    for (Region &r : overflow_)
      fn(r);
    for (auto &v : buckets_)
      for (Region &r : v)
        fn(r);
  }
  size_t size() const {
    size_t n = overflow_.size();
    for (auto &v : buckets_)
      n += v.size();
    return n;
  }
  void clear() {
    overflow_.clear();
    overflow_.shrink_to_fit();
    buckets_.clear();
    buckets_.shrink_to_fit();
  }

private:
  // One bucket per index up to this extent: a barrier array of a long K loop
  // keeps one region per word, and an access should look at its own word only.
  static constexpr int64_t kMaxBuckets = 1024;
  int key_ = -1;
  int64_t width_ = 1;
  std::vector<std::vector<Region>> buckets_;
  std::vector<Region> overflow_;
};

} // namespace exgc::sync::fast_detail

#endif
