// units.h - collective units as written in `.exg` --------------------------//
// Owns: the meaning of a unit expression (`cuda_warp`, `8 * cuda_thread`,
// `2 * cuda_threads_strided(1, 4)`, ...) for a device function's blockDim
// and clusterDim: its domain and box (the units table of docs/gpu.md).
#pragma once
#include <optional>
#include <string>

#include "compiler/analysis/gpu_names.h"
#include "compiler/gpu/collective.h"
#include "compiler/ir/nodes.h"

namespace exgc::gpu {

using analysis::UnitKind;

/// The value of an integer literal; false for any other expression.
bool int_literal(const Expr &e, int64_t &v);

/// The unit `e` denotes under `env`; empty optional and `err` when `e` is not a
/// unit, scales one that cannot be scaled, or does not fit the device.
std::optional<CollUnit> eval_unit(const Expr &e, const DeviceEnv &env, std::string &err);

/// A unit used as a name (`cuda_warp`), as instructions and memories name
/// them; `k` scales it. Empty for a parametric unit.
std::optional<CollUnit> named_unit(UnitKind unit, const DeviceEnv &env, int64_t k = 1);

} // namespace exgc::gpu
