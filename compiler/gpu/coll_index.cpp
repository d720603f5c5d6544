// coll_index.cpp - a thread's coordinate as C index arithmetic ------------//
#include "compiler/gpu/coll_index.h"

#include "compiler/support/floor_div.h"

namespace exgc::gpu {

CollIndex CollIndex::ranged(Base base, int64_t extent) {
  CollIndex e;
  e.base_ = base;
  e.lo_ = 0;
  e.hi_ = extent;
  return e;
}

CollIndex CollIndex::thread(int64_t block_dim) { return ranged(Base::Thread, block_dim); }

CollIndex CollIndex::cluster_rank(int64_t cluster_dim) {
  return ranged(Base::ClusterRank, cluster_dim);
}

CollIndex CollIndex::constant(int64_t v) {
  CollIndex e;
  e.value_ = v;
  e.lo_ = v;
  e.hi_ = v + 1;
  return e;
}

CollIndex CollIndex::minus(int64_t c) const {
  if (c == 0)
    return *this;
  if (is_const())
    return constant(value_ - c);
  CollIndex e = *this;
  if (!e.ops_.empty() && e.ops_.back().kind == '-')
    e.ops_.back().c += c; // two subtractions merge
  else
    e.ops_.push_back({'-', c});
  if (e.ops_.back().c == 0)
    e.ops_.pop_back();
  e.lo_ -= c;
  e.hi_ -= c;
  return e;
}

CollIndex CollIndex::div(int64_t c) const {
  if (c == 1)
    return *this;
  if (is_const())
    return constant(floor_div(value_, c));
  CollIndex e = *this;
  if (!e.ops_.empty() && e.ops_.back().kind == '/')
    e.ops_.back().c *= c; // x / a / b = x / (a * b)
  else
    e.ops_.push_back({'/', c});
  e.lo_ = floor_div(lo_, c);
  e.hi_ = floor_div(hi_ - 1, c) + 1;
  return e;
}

CollIndex CollIndex::mod(int64_t c) const {
  if (c == 1)
    return constant(0);
  if (is_const())
    return constant(((value_ % c) + c) % c);
  if (lo_ >= 0 && hi_ <= c)
    return *this; // already within [0, c)
  CollIndex e = *this;
  // (x % w) % v and (x - w) % v are x % v when v divides w.
  while (!e.ops_.empty() && (e.ops_.back().kind == '%' || e.ops_.back().kind == '-') &&
         e.ops_.back().c % c == 0)
    e.ops_.pop_back();
  e.ops_.push_back({'%', c});
  e.lo_ = 0;
  e.hi_ = c;
  return e;
}

int64_t CollIndex::eval(int64_t thread_idx, int64_t cluster_rank) const {
  int64_t v = base_ == Base::Thread        ? thread_idx
              : base_ == Base::ClusterRank ? cluster_rank
                                           : value_;
  for (const Op &op : ops_)
    v = op.kind == '-' ? v - op.c : op.kind == '/' ? v / op.c : v % op.c;
  return v;
}

std::string CollIndex::c_str(const std::string &tid, const std::string &rank) const {
  if (is_const())
    return value_ < 0 ? "(" + std::to_string(value_) + ")" : std::to_string(value_);
  std::string s = base_ == Base::Thread ? tid : rank;
  char prev = 0;
  for (const Op &op : ops_) {
    // C binds / and % tighter than -: `(t - 128) / 128`, not `t - 128 / 128`.
    if (prev == '-' && op.kind != '-')
      s = "(" + s + ")";
    s += std::string(" ") + op.kind + " " + std::to_string(op.c);
    prev = op.kind;
  }
  return ops_.empty() ? s : "(" + s + ")";
}

} // namespace exgc::gpu
