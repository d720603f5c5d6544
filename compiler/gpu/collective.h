// collective.h - the collective algebra -----------------------------------//
// Owns: which threads of a cluster run a statement (docs/gpu.md,
// "Collectives"). The N = C * B threads of a cluster are a
// row-major grid (a domain); a collective type is a box in such a grid, with
// "any" coordinates; a tiling is the grid as the enclosing `cuda_threads`
// loops and `CudaWarps` blocks have narrowed it, one list of operations per
// dimension, with each thread's coordinate as C index arithmetic. Completion
// refines two grids to a common one; `derive` narrows a tiling by a loop;
// `at_scope` decides whether a tiling's collectives are instances of a type.
// Every failure is a message for the caller's diagnostic, never an abort.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/gpu/coll_index.h"

namespace exgc::gpu {

/// "(8, 32)", with "any" for kAny.
std::string tuple_str(const std::vector<int64_t> &v);

/// A box coordinate that may be anything ("don't care", the reference's ⊤).
constexpr int64_t kAny = -1;

struct DeviceEnv {
  int64_t block_dim = 0;   // threads per CTA
  int64_t cluster_dim = 1; // CTAs per cluster
  int64_t threads() const { return block_dim * cluster_dim; }
};

/// A collective type: a domain (row-major extents, last fastest) and a box
/// per dimension (an extent, or kAny).
struct CollType {
  std::vector<int64_t> domain, box;
  std::string name; // the unit it was unpacked from, quoted, for messages
  int64_t threads() const;
  std::string str() const; // "(8, 32)/(1, 32)"
};

/// One narrowing of a tiling dimension: iteration σ of `iter` takes the box
/// [offset + σ * box, offset + (σ + 1) * box) of the dimension.
struct TileOp {
  uint32_t iter = 0;    // Sym id of the loop iterator; 0 for CudaWarps
  std::string name;     // for messages
  std::string unit;     // the loop's unit, quoted, for messages
  int64_t offset = 0;
  int64_t box = 0;
  int64_t tile_count = 1;
  int depth = 0;        // derive steps before this one
};

struct TileDim {
  int64_t extent = 1;
  std::vector<TileOp> ops;
  CollIndex coord = CollIndex::constant(0); // relative to the current box
  int64_t box() const { return ops.empty() ? extent : ops.back().box; }
  int64_t base_offset() const;
};

struct Tiling {
  std::vector<TileDim> dims;
  int depth = 0;
  int64_t cluster_dim = 1; // for messages: whether the whole grid is a CTA

  /// The whole cluster: (B) or (C, B), coordinates threadIdx.x and rank.
  static Tiling device(const DeviceEnv &env);
  std::vector<int64_t> domain() const;
  std::vector<int64_t> boxes() const;
  int64_t pitch(size_t dim) const; // product of the extents after `dim`
  int64_t threads() const;
  /// Whether each collective is whole warps of a CTA: its threads are runs of
  /// consecutive threadIdx.x that start and end on multiples of 32.
  bool whole_warps() const;
  std::string str() const; // "domain=(8, 32), box=(1, 32)"
};

/// A collective unit after substituting the device's blockDim and clusterDim.
struct CollUnit {
  std::vector<int64_t> domain, box; // box may hold kAny
  bool scalable = true;
  std::string name;
};

/// Unpacks a unit for deriving tilings (raw: extent-1 dimensions dropped, a
/// unit smaller than the cluster padded with an outer "any" dimension) or for
/// scope checks (aligned: padded with 1, and every box coordinate strictly
/// between 1 and its extent split out). Empty optional and `err` on failure.
std::optional<CollType> unpack_raw(const CollUnit &u, const DeviceEnv &env, std::string &err);
std::optional<CollType> unpack_aligned(const CollUnit &u, const DeviceEnv &env, std::string &err);

/// Refines `t` and `c` to one domain (the union of their pitch sets, which
/// must form a divisibility chain). False and `err` when they cannot be.
bool complete(Tiling &t, CollType &c, std::string &err);

/// Result of narrowing a tiling by a loop.
struct Derived {
  Tiling child;
  bool trivial = false;   // the unit does not narrow: the iterator is 0
  size_t dim = 0;         // the tiled dimension (of the parent after completion)
  CollIndex iter = CollIndex::constant(0); // the iterator's value
  std::optional<int64_t> guard_lo, guard_hi; // on the iterator expression `before`
  CollIndex before = CollIndex::constant(0); // the guarded coordinate
  int64_t pitch = 0;      // distance in thread index between iterations
  int64_t tile_count = 0;
};

/// Narrows `parent` by a `cuda_threads(0, hi, unit=u)` loop (`loop`: lo is 0,
/// iteration j takes the j-th unit of the box) or by `CudaWarps(lo, hi)` (not
/// `loop`: the units [lo, hi) of the box run the body together; `unit` is
/// then the warp). Empty optional and `err` when the loop does not fit.
std::optional<Derived> derive(const Tiling &parent, uint32_t iter, const std::string &name,
                              const CollType &unit, int64_t lo, int64_t hi, bool loop,
                              std::string &err);

/// Whether every collective of `t` is an instance of the aligned type `c`.
/// `err` says why not (the completed domain, the box and the expected box).
bool at_scope(const Tiling &t, const CollType &c, std::string &err);

} // namespace exgc::gpu
