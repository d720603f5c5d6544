// warp_roles.h - warp roles of a device function and `CudaWarps` ranges ----//
// Owns: the meaning of `CudaDeviceFunction(warps=[warp_role(name, nwarps,
// setmaxnreg_dec=R | setmaxnreg_inc=R), ...])` (roles laid out in order from
// warp 0; blockDim is their sum) and of `with CudaWarps(lo, hi, name=...)`
// (warps [lo, hi) of the role `name`, or of the CTA without a name; the whole
// role without lo and hi). Checked: role names unique, setmaxnreg a multiple
// of 8 in [24, 256], roles that use setmaxnreg cover whole warpgroups (the
// instruction is per warpgroup, so all of a warpgroup must agree), and the
// registers of all roles fit the SM's 64K for blocks_per_sm CTAs.
// Called by gpu_check.cpp; the results go to KernelFacts (facts.h).
#pragma once
#include <vector>

#include "compiler/gpu/facts.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// Registers of one SM that CTAs may hold together (sm_90).
constexpr int64_t kRegistersPerSm = 64 * 1024;

/// Reads the `warps=` list of a `CudaDeviceFunction` call into `roles` and
/// sets `block_dim` to 32 x the warps. False after reporting.
bool read_warp_roles(const Expr &list, int64_t blocks_per_sm, DiagEngine &diag,
                     std::vector<WarpRole> &roles, int64_t &block_dim);

/// The absolute warps of `with CudaWarps(...)` (`ctx` is its context) in a
/// CTA of `cta_warps` warps with these roles. False after reporting.
bool read_warps_block(const Call &ctx, const std::vector<WarpRole> &roles, int64_t cta_warps,
                      DiagEngine &diag, WarpsBlockFacts &out);

/// Registers ptxas gives each thread at launch under
/// __launch_bounds__(block_dim, blocks_per_sm): the SM's registers shared out
/// (a multiple of 8, at most 255), or the roles' largest setmaxnreg count when
/// lower. A role without setmaxnreg keeps it; `.dec` must not exceed it, nor
/// `.inc` fall below it, and the CTA's pool is block_dim times it.
int64_t launch_registers(int64_t block_dim, int64_t blocks_per_sm,
                         const std::vector<WarpRole> &roles);

} // namespace exgc::gpu
