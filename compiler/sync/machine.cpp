// machine.cpp - boxes, tensor layout and ring-slot setup shared by engines //
#include "compiler/sync/machine.h"

namespace exgc::sync {

int64_t Box::volume() const {
  int64_t v = 1;
  for (size_t d = 0; d < lo.size(); ++d)
    v *= hi[d] > lo[d] ? hi[d] - lo[d] : 0;
  return v;
}

bool Box::empty() const {
  for (size_t d = 0; d < lo.size(); ++d)
    if (hi[d] <= lo[d])
      return true;
  return false;
}

int64_t TensorInfo::linear(const int64_t *idx) const {
  int64_t l = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    l += idx[d] * strides[d];
  return l;
}

std::vector<int64_t> TensorInfo::unlinear(int64_t lin) const {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    idx[d] = strides[d] ? lin / strides[d] : 0;
    lin -= idx[d] * strides[d];
  }
  return idx;
}

// Reference section 4.7: slot idx of a self-guarded barrier ring z is
// allocated by an await of z[idx - V] and freed by an arrive on z[idx + V];
// slot idx of a buffer guarded by z is allocated by awaits of z[idx] (of every
// barrier of its multicast group) and freed by an arrive on z[idx + V].
void TensorTable::append(const uint32_t *slots, size_t n, size_t times) {
  if (n == 0 || times == 0)
    return;
  // One more plain id (or ids) extends the last plain run.
  if (times == 1 && !runs_.empty()) {
    Run &r = runs_.back();
    if (r.period == r.count && r.pool + r.period == pool_.size()) {
      pool_.insert(pool_.end(), slots, slots + n);
      r.count += n;
      r.period += n;
      size_ += n;
      return;
    }
  }
  runs_.push_back({size_, n * times, pool_.size(), n});
  pool_.insert(pool_.end(), slots, slots + n);
  size_ += n * times;
}

void TensorTable::add_aliases(size_t first, size_t n, size_t times) {
  if (n == 0 || times == 0)
    return;
  // A template's range aliased again (every replayed task): its slots are
  // in the pool already.
  if (last_range_.n == n && last_range_.first == first) {
    runs_.push_back({size_, n * times, last_range_.pool, n});
    size_ += n * times;
    return;
  }
  std::vector<uint32_t> slots(n);
  for (size_t i = 0; i < n; ++i)
    slots[i] = slot(first + i);
  const size_t pool = pool_.size();
  runs_.push_back({size_, n * times, pool, n});
  pool_.insert(pool_.end(), slots.begin(), slots.end());
  size_ += n * times;
  last_range_ = {first, n, pool};
}

std::vector<RingSlot> ring_slots(const TensorInfo &t, const TensorTable &tensors) {
  std::vector<RingSlot> slots;
  if (t.ring_dim < 0)
    return slots;
  const TensorInfo &z = t.guard >= 0 ? tensors[t.guard] : t;
  const int rank_z = static_cast<int>(z.shape.size());
  const int64_t depth = z.ring_depth;
  // Enumerate the guard-rank prefix of t's index space.
  std::vector<int64_t> idx(rank_z, 0);
  int64_t count = 1;
  for (int d = 0; d < rank_z; ++d)
    count *= t.shape[d];
  for (int64_t n = 0; n < count; ++n) {
    int64_t rem = n;
    for (int d = rank_z - 1; d >= 0; --d) {
      idx[d] = rem % t.shape[d];
      rem /= t.shape[d];
    }
    RingSlot s;
    s.box.lo.resize(static_cast<unsigned>(t.shape.size()));
    for (int64_t &v : s.box.lo)
      v = 0;
    s.box.hi.assign(t.shape.data(), t.shape.data() + t.shape.size());
    for (int d = 0; d < rank_z; ++d) {
      s.box.lo[d] = idx[d];
      s.box.hi[d] = idx[d] + 1;
    }
    std::vector<int64_t> f = idx;
    f[z.ring_dim] += depth;
    if (f[z.ring_dim] < z.shape[z.ring_dim])
      s.free_on_arrive = static_cast<int64_t>(z.bar_base + z.linear(f));
    if (t.guard < 0) {
      if (idx[z.ring_dim] >= depth) {
        std::vector<int64_t> a = idx;
        a[z.ring_dim] -= depth;
        s.alloc_on_await.push_back(z.bar_base + z.linear(a));
      }
    } else {
      // The multicast group of z[idx]: every value of the multicast dims.
      std::vector<std::vector<int64_t>> group{idx};
      for (int md : t.guard_mcast) {
        std::vector<std::vector<int64_t>> next;
        for (const auto &g : group)
          for (int64_t v = 0; v < z.shape[md]; ++v) {
            next.push_back(g);
            next.back()[md] = v;
          }
        group.swap(next);
      }
      for (const auto &g : group)
        s.alloc_on_await.push_back(z.bar_base + z.linear(g));
    }
    slots.push_back(std::move(s));
  }
  return slots;
}

} // namespace exgc::sync
