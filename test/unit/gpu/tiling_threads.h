// tiling_threads.h - the threads of a tiling's collective, by brute force -//
// Shared by the GPU stage's unit tests: walks the boxes of every dimension
// of a tiling at given loop iterations, so a test compares the algebra's
// claims with the actual set of threads.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "compiler/gpu/collective.h"

namespace exgc::gpu {

/// The collective of iteration values `sigma` by the tiling's thread mapping.
inline std::set<int64_t> mapped(const Tiling &t, const std::map<uint32_t, int64_t> &sigma) {
  std::vector<int64_t> lo, box;
  for (const TileDim &d : t.dims) {
    int64_t x = 0;
    for (const TileOp &op : d.ops)
      x += op.offset + (op.tile_count > 1 ? sigma.at(op.iter) * op.box : 0);
    lo.push_back(x);
    box.push_back(d.box());
  }
  std::set<int64_t> out;
  std::vector<int64_t> c(lo);
  for (int64_t guard = 0; guard <= t.threads(); ++guard) {
    int64_t l = 0;
    for (size_t i = 0; i < c.size(); ++i)
      l = l * t.dims[i].extent + c[i];
    out.insert(l);
    size_t i = c.size();
    while (i-- > 0) {
      if (++c[i] < lo[i] + box[i])
        break;
      c[i] = lo[i];
    }
    if (i == static_cast<size_t>(-1))
      break;
  }
  return out;
}

} // namespace exgc::gpu
