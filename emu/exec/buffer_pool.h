// emu/exec/buffer_pool.h - buffers one CTA hands on to the next ------------//
// Owns: the large per-CTA and per-warp buffers (register files, shared and
// local memory, the async-proxy shadow) between their uses. A fresh buffer
// per CTA cost a page fault per 4 KiB, and with nvcc's thousands of declared
// registers (a register file is slots x 32 lanes x 8 bytes, ~1.4 MiB per warp
// for a GEMM) that was nearly half of a launch. The scheduler takes buffers
// for a cluster's CTAs and warps and gives them back when the cluster ends;
// the Device keeps the pool across launches. Contents are stale: the taker
// fills what the adversary needs (scheduler.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace emu::exec {

template <class T> class Pool {
public:
  /// An empty vector, with the capacity of the smallest free buffer that
  /// holds `n` elements (else of the largest one).
  std::vector<T> take(size_t n) {
    if (free_.empty())
      return {};
    size_t best = 0;
    for (size_t i = 1; i < free_.size(); ++i) {
      size_t c = free_[i].capacity(), b = free_[best].capacity();
      bool fits = c >= n, best_fits = b >= n;
      if (fits != best_fits ? fits : fits ? c < b : c > b)
        best = i;
    }
    std::vector<T> v = std::move(free_[best]);
    free_[best] = std::move(free_.back());
    free_.pop_back();
    v.clear();
    return v;
  }
  void give(std::vector<T> &&v) {
    if (v.capacity())
      free_.push_back(std::move(v));
  }

private:
  std::vector<std::vector<T>> free_;
};

struct BufferPool {
  Pool<uint64_t> words; ///< register files, async-proxy shadows
  Pool<uint8_t> bytes;  ///< shared and local memory
};

} // namespace emu::exec
