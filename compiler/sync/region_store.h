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
#include <utility>
#include <vector>

namespace exgc::sync::fast_detail {

struct Region {
  Box box;
  uint32_t ar;
};

struct RegionRef {
  int32_t bucket; // -1: overflow (tensors of one element)
  uint32_t idx;
  bool operator<(const RegionRef &o) const {
    return bucket != o.bucket ? bucket < o.bucket : idx < o.idx;
  }
  bool operator==(const RegionRef &o) const { return bucket == o.bucket && idx == o.idx; }
};

// Region positions by exact box: an open-addressing table (linear probing,
// deletion by backward shift), since a thread's scalar accesses look up, add
// and remove one region each and a node-based map's pointer chasing and
// allocations were a quarter of such an access. Keys are a box's first and
// last elements' C-order positions, never negative.
class ExactIndex {
public:
  using Key = std::pair<int64_t, int64_t>;
  bool find(const Key &k, RegionRef &out) const {
    if (slots_.empty())
      return false;
    for (size_t i = home(k);; i = (i + 1) & mask_) {
      const Slot &s = slots_[i];
      if (s.key.first < 0)
        return false;
      if (s.key == k) {
        out = s.ref;
        return true;
      }
    }
  }
  void set(const Key &k, RegionRef ref) {
    if ((size_ + 1) * 4 > slots_.size() * 3)
      grow();
    for (size_t i = home(k);; i = (i + 1) & mask_) {
      Slot &s = slots_[i];
      if (s.key.first < 0) {
        s = {k, ref};
        ++size_;
        return;
      }
      if (s.key == k) {
        s.ref = ref;
        return;
      }
    }
  }
  void erase(const Key &k) {
    if (slots_.empty())
      return;
    size_t i = home(k);
    for (;; i = (i + 1) & mask_) {
      if (slots_[i].key.first < 0)
        return;
      if (slots_[i].key == k)
        break;
    }
    // Move later entries of the probe run back into the hole, so that every
    // entry stays reachable from its home slot without tombstones.
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].key.first < 0)
        break;
      const size_t h = home(slots_[j].key);
      // j's entry may fill hole i when its home is not inside (i, j].
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].key.first = -1;
    --size_;
  }
  void clear() {
    slots_.clear();
    slots_.shrink_to_fit();
    size_ = 0;
    mask_ = 0;
  }

private:
  struct Slot {
    Key key{-1, -1};
    RegionRef ref{};
  };
  size_t home(const Key &k) const {
    uint64_t h = static_cast<uint64_t>(k.first) * 0x9E3779B97F4A7C15ull ^
                 static_cast<uint64_t>(k.second) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<size_t>(h ^ (h >> 29)) & mask_;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot());
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Slot &s : old)
      if (s.key.first >= 0)
        set(s.key, s.ref);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0, mask_ = 0;
};

// The regions of one tensor, bucketed on one dimension (the first with more
// than one index, e.g. a ring's slot), so that an access looks only at the
// regions of the slots it touches. A region spanning buckets goes to a
// coarser level (buckets twice as wide per level), the first where one
// bucket holds it; overflow holds the regions of a tensor with no dimension
// to key on. Once a query has had to look at many regions of one bucket, every region is
// also indexed by its exact box: regions are disjoint, so an access whose box
// is a region's touches that region only, and a thread's scalar accesses to
// a register tile find their element's region without scanning the bucket.
class RegionStore {
public:
  void init(const TensorInfo &t) {
    strides_.assign(t.strides.data(), t.strides.data() + t.strides.size());
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
    // Level L has buckets 2^L times as wide, down to one bucket.
    size_t n = static_cast<size_t>((ext + width_ - 1) / width_), total = 0;
    level_base_.clear();
    for (;;) {
      level_base_.push_back(total);
      total += n;
      if (n == 1)
        break;
      n = (n + 1) / 2;
    }
    level_count_.assign(level_base_.size(), 0);
    buckets_.assign(total, {});
    wide_.assign(total, 0);
  }
  Region &at(const RegionRef &r) { return r.bucket < 0 ? overflow_[r.idx] : buckets_[r.bucket][r.idx]; }
  /// Calls `fn` on each region overlapping `b`; returns how many regions it
  /// examined (the work, for the check's meter: a bucket may hold thousands).
  template <typename Fn> size_t query(const Box &b, Fn fn) {
    size_t examined = overflow_.size();
    for (uint32_t i = 0; i < overflow_.size(); ++i)
      if (overlaps(overflow_[i].box, b))
        fn(RegionRef{-1, i});
    if (key_ < 0)
      return examined;
    const int64_t lo = b.lo[key_] / width_, hi = (b.hi[key_] - 1) / width_;
    const bool point = is_point(b);
    for (size_t level = 0; level < level_base_.size(); ++level) {
      if (level_count_[level] == 0)
        continue;
      for (int64_t j = lo >> level; j <= hi >> level; ++j) {
        const size_t k = level_base_[level] + static_cast<size_t>(j);
        std::vector<Region> &v = buckets_[k];
        if (v.size() > kIndexAfter && !indexed_)
          build_index();
        // A bucket of one-element regions (a tile written element by element)
        // meets a one-element box in its own region only.
        if (point && indexed_ && wide_[k] == 0) {
          RegionRef r;
          ++examined;
          if (exact_.find(exact_key(b), r) && r.bucket == static_cast<int32_t>(k))
            fn(r);
          continue;
        }
        examined += v.size();
        for (uint32_t i = 0; i < v.size(); ++i)
          if (overlaps(v[i].box, b))
            fn(RegionRef{static_cast<int32_t>(k), i});
      }
    }
    return examined;
  }
  /// The region whose box is exactly `b`, if any (false: none, or no index).
  bool find_exact(const Box &b, RegionRef &out) const {
    if (!indexed_)
      return false;
    return exact_.find(exact_key(b), out);
  }
  void add(Region r) {
    std::vector<Region> *v = &overflow_;
    int32_t bucket = -1;
    if (key_ >= 0) {
      const int64_t lo = r.box.lo[key_] / width_, hi = (r.box.hi[key_] - 1) / width_;
      size_t level = 0;
      while ((lo >> level) != (hi >> level))
        ++level;
      bucket = static_cast<int32_t>(level_base_[level] + static_cast<size_t>(lo >> level));
      v = &buckets_[bucket];
      wide_[bucket] += !is_point(r.box);
      ++level_count_[level];
    }
    if (indexed_)
      exact_.set(exact_key(r.box), RegionRef{bucket, static_cast<uint32_t>(v->size())});
    v->push_back(std::move(r));
  }
  /// Removes `refs` (sorted ascending); returns nothing, refs become invalid.
  void remove(const std::vector<RegionRef> &refs) {
    for (size_t k = refs.size(); k-- > 0;) {
      std::vector<Region> &v = refs[k].bucket < 0 ? overflow_ : buckets_[refs[k].bucket];
      if (refs[k].bucket >= 0) {
        wide_[refs[k].bucket] -= !is_point(v[refs[k].idx].box);
        --level_count_[level_of(static_cast<size_t>(refs[k].bucket))];
      }
      if (indexed_) {
        exact_.erase(exact_key(v[refs[k].idx].box));
        if (refs[k].idx + 1 != v.size())
          exact_.set(exact_key(v.back().box), refs[k]);
      }
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
    wide_.clear();
    wide_.shrink_to_fit();
    level_count_.assign(level_count_.size(), 0);
    exact_.clear();
    indexed_ = false;
  }

private:
  // One bucket per index up to this extent: a barrier array of a long K loop
  // keeps one region per word, and an access should look at its own word only
  // (as should a task writing its rows of a long output vector).
  static constexpr int64_t kMaxBuckets = 16384;
  // Regions in one bucket beyond which the exact index pays for its upkeep.
  // (A hash lookup costs about what scanning 8 regions does.)
  static constexpr size_t kIndexAfter = 8;
  int key_ = -1;
  int64_t width_ = 1;
  std::vector<std::vector<Region>> buckets_;
  std::vector<uint32_t> wide_; // per bucket: its regions of more than one element
  // Buckets by level: a region goes to the first level where one bucket
  // holds its extent on the key dimension (a task's 32-row tile, a ring
  // slot's rows), so that no region is scanned by every query.
  std::vector<size_t> level_base_, level_count_;
  size_t level_of(size_t bucket) const {
    return static_cast<size_t>(std::upper_bound(level_base_.begin(), level_base_.end(), bucket) -
                               level_base_.begin()) -
           1;
  }
  std::vector<Region> overflow_;
  static bool is_point(const Box &b) {
    for (size_t d = 0; d < b.lo.size(); ++d)
      if (b.hi[d] - b.lo[d] != 1)
        return false;
    return true;
  }
  // Exact index: a non-empty box is its first and last elements' C-order
  // positions, which (for boxes inside the tensor) determine it.
  using ExactKey = ExactIndex::Key;
  ExactKey exact_key(const Box &b) const {
    int64_t lo = 0, last = 0;
    for (size_t d = 0; d < strides_.size(); ++d) {
      lo += b.lo[d] * strides_[d];
      last += (b.hi[d] - 1) * strides_[d];
    }
    return {lo, last};
  }
  void build_index() {
    indexed_ = true;
    for (uint32_t i = 0; i < overflow_.size(); ++i)
      exact_.set(exact_key(overflow_[i].box), RegionRef{-1, i});
    for (size_t k = 0; k < buckets_.size(); ++k)
      for (uint32_t i = 0; i < buckets_[k].size(); ++i)
        exact_.set(exact_key(buckets_[k][i].box), RegionRef{static_cast<int32_t>(k), i});
  }
  Idx strides_;
  bool indexed_ = false;
  ExactIndex exact_;
};

} // namespace exgc::sync::fast_detail

#endif
