// coll_index.h - a thread's coordinate as C index arithmetic --------------//
// Owns: CollIndex, the expression that gives each thread its coordinate in
// one dimension of a collective tiling: a base (`threadIdx.x`, the CTA's rank
// in its cluster, or a constant) followed by `- c`, `/ c` and `% c`
// (docs/gpu.md, "Collectives"). Simplification happens as the chain is
// built, so what codegen prints is already simple. Used by collective.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace exgc::gpu {

class CollIndex {
public:
  enum class Base { Thread, ClusterRank, Const };

  /// `threadIdx.x` with range [0, block_dim), the cluster rank with range
  /// [0, cluster_dim), or a constant.
  static CollIndex thread(int64_t block_dim);
  static CollIndex cluster_rank(int64_t cluster_dim);
  static CollIndex constant(int64_t v);

  CollIndex minus(int64_t c) const;
  CollIndex div(int64_t c) const; // c > 0
  CollIndex mod(int64_t c) const; // c > 0

  bool is_const() const { return base_ == Base::Const; }
  int64_t const_value() const { return value_; }
  /// The known range [lo, hi) of the value for every thread.
  int64_t lo() const { return lo_; }
  int64_t hi() const { return hi_; }

  /// The value for a thread, with C's truncating division as generated code
  /// computes it (intermediates are negative only for threads a guard drops).
  int64_t eval(int64_t thread_idx, int64_t cluster_rank) const;
  /// C text; `tid` and `rank` name the base values. Parenthesised unless it is
  /// a bare name or a non-negative constant.
  std::string c_str(const std::string &tid, const std::string &rank) const;

private:
  static CollIndex ranged(Base base, int64_t extent); // base in [0, extent)
  struct Op {
    char kind; // '-', '/', '%'
    int64_t c;
  };
  Base base_ = Base::Const;
  int64_t value_ = 0;
  std::vector<Op> ops_;
  int64_t lo_ = 0, hi_ = 1;
};

} // namespace exgc::gpu
