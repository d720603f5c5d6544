// warp_roles.cpp - warp roles of a device function and `CudaWarps` ranges --//
#include "compiler/gpu/warp_roles.h"

#include <algorithm>

#include "compiler/gpu/units.h"
#include "compiler/ir/printer.h"
#include "compiler/support/identifier.h"

namespace exgc::gpu {

namespace {

SrcLoc loc_of(const KwArg &k) { return k.value ? k.value->loc : k.loc; }

/// One `warp_role("name", nwarps, setmaxnreg_dec=R)`; false after reporting.
bool read_role(const Expr &e, DiagEngine &diag, WarpRole &role, int64_t &nwarps) {
  const auto *c = e.as<Call>();
  const StrImm *name = c && !c->args.empty() ? c->args[0].as<StrImm>() : nullptr;
  if (!c || c->func != "warp_role" || c->args.size() != 2 || !name)
    return diag.report(e->loc, DiagKind::BadWarpRole, "'" + print_expr(e) + "' is not a warp role");
  role.name = name->value;
  role.loc = e->loc;
  // The name is written into the generated CUDA (comments now, per-role
  // functions in the reference): only a C identifier is safe there.
  if (!is_c_identifier(role.name))
    return diag.report(c->args[0]->loc, DiagKind::BadWarpRole,
                       "the warp role name \"" + role.name + "\" must be a C identifier");
  if (!int_literal(c->args[1], nwarps) || nwarps < 1 || nwarps > 32)
    return diag.report(c->args[1]->loc, DiagKind::BadWarpRole,
                       "the warp count of '" + role.name + "' must be an integer from 1 to 32");
  for (const KwArg &k : c->kwargs) {
    bool inc = k.key == "setmaxnreg_inc";
    if (!inc && k.key != "setmaxnreg_dec")
      return diag.report(loc_of(k), DiagKind::BadWarpRole,
                         "'" + k.key + "' is not a parameter of a warp role");
    if (role.setmaxnreg)
      return diag.report(loc_of(k), DiagKind::BadWarpRole,
                         "warp role '" + role.name + "' gives setmaxnreg twice");
    int64_t r = 0;
    if (!k.value || !int_literal(k.value, r) || r < 24 || r > 256 || r % 8 != 0)
      return diag.report(loc_of(k), DiagKind::WarpRoleRegisters, role.name,
                         k.value ? print_expr(k.value) : std::string("missing"));
    role.setmaxnreg = r;
    role.increase = inc;
  }
  return true;
}

} // namespace

int64_t launch_registers(int64_t block_dim, int64_t blocks_per_sm,
                         const std::vector<WarpRole> &roles) {
  int64_t limit = std::min<int64_t>(255, kRegistersPerSm / (block_dim * blocks_per_sm) / 8 * 8);
  // ptxas (CUDA 13, measured with -v) launches a kernel that uses setmaxnreg
  // with its largest setmaxnreg count when that is below the limit.
  int64_t largest = 0;
  for (const WarpRole &r : roles)
    largest = std::max(largest, r.setmaxnreg);
  return largest ? std::min(limit, largest) : limit;
}

bool read_warp_roles(const Expr &list, int64_t blocks_per_sm, DiagEngine &diag,
                     std::vector<WarpRole> &roles, int64_t &block_dim) {
  const auto *l = list.as<ListExpr>();
  if (!l || l->elems.empty())
    return diag.report(list->loc, DiagKind::BadWarpRole,
                       "'warps=' must be a list of warp roles, not '" + print_expr(list) + "'");
  int64_t warps = 0;
  for (const Expr &e : l->elems) {
    WarpRole role;
    int64_t n = 0;
    if (!read_role(e, diag, role, n))
      return false;
    for (const WarpRole &r : roles)
      if (r.name == role.name)
        return diag.report(e->loc, DiagKind::BadWarpRole,
                           "warp role '" + role.name + "' is declared twice")
            .note(r.loc, "first declared here");
    role.lo = warps;
    role.hi = warps += n;
    roles.push_back(role);
  }
  if (warps > 32)
    return diag.report(list->loc, DiagKind::BadWarpRole,
                       "the roles have " + std::to_string(warps) +
                           " warps, more than a CTA's 32");
  block_dim = warps * 32;
  // setmaxnreg.sync.aligned is executed by whole warpgroups, all with the same
  // count: a role using it must own its warpgroups alone.
  for (const WarpRole &r : roles)
    if (r.setmaxnreg && (r.lo % 4 != 0 || r.hi % 4 != 0))
      return diag.report(r.loc, DiagKind::WarpRoleNotAligned, r.name, r.lo, r.hi);
  // The registers setmaxnreg moves between warps are the CTA's own: the
  // launch gives every thread `launch` (ptxas's limit under
  // __launch_bounds__(blockDim, blocks_per_sm)), `.dec` may only lower a
  // warp's count and `.inc` only raise it, and an `.inc` the CTA's pool cannot
  // cover waits forever (PTX ISA, setmaxnreg).
  const int64_t launch = launch_registers(block_dim, blocks_per_sm, roles);
  for (const WarpRole &r : roles)
    if (r.setmaxnreg && (r.increase ? r.setmaxnreg < launch : r.setmaxnreg > launch))
      return diag.report(r.loc, DiagKind::WarpRegisterDirection, r.name,
                         r.increase ? "setmaxnreg_inc" : "setmaxnreg_dec", r.setmaxnreg,
                         r.increase ? "below" : "above", launch, block_dim, blocks_per_sm);
  int64_t total = 0;
  std::string parts;
  for (const WarpRole &r : roles) {
    int64_t regs = r.setmaxnreg ? r.setmaxnreg : launch;
    total += regs * 32 * (r.hi - r.lo);
    parts += (parts.empty() ? "" : " + ") + std::to_string(32 * (r.hi - r.lo)) + " x " +
             std::to_string(regs) + " for '" + r.name + "'";
  }
  // Registers are allocated to warps in units of 8 per thread: 255 holds 256.
  const int64_t held = (launch + 7) / 8 * 8;
  if (total > block_dim * held)
    return diag.report(list->loc, DiagKind::WarpRegisterBudget, total, parts, block_dim * held,
                       block_dim, held);
  return true;
}

bool read_warps_block(const Call &ctx, const std::vector<WarpRole> &roles, int64_t cta_warps,
                      DiagEngine &diag, WarpsBlockFacts &out) {
  int64_t base = 0, count = cta_warps;
  std::string where = "the CTA";
  for (const KwArg &k : ctx.kwargs) {
    const auto *s = k.value ? k.value.as<StrImm>() : nullptr;
    if (k.key != "name" || !s)
      return diag.report(loc_of(k), DiagKind::BadWarpsBlock,
                         "'CudaWarps' takes warps (lo, hi) and name=\"role\", not '" + k.key +
                             "'");
    out.role = -1;
    for (size_t i = 0; i < roles.size(); ++i)
      if (roles[i].name == s->value)
        out.role = static_cast<int>(i);
    if (out.role < 0)
      return diag.report(loc_of(k), DiagKind::BadWarpsBlock,
                         "the device function has no warp role '" + s->value + "'");
    base = roles[static_cast<size_t>(out.role)].lo;
    count = roles[static_cast<size_t>(out.role)].hi - base;
    where = "the role '" + s->value + "'";
  }
  int64_t lo = 0, hi = count;
  if (ctx.args.size() == 2) {
    if (!int_literal(ctx.args[0], lo) || !int_literal(ctx.args[1], hi))
      return diag.report(ctx.loc, DiagKind::BadWarpsBlock,
                         "the warps of 'CudaWarps' must be integer constants");
  } else if (!ctx.args.empty() || ctx.kwargs.empty()) {
    return diag.report(ctx.loc, DiagKind::BadWarpsBlock,
                       "'CudaWarps' takes warps (lo, hi), name=\"role\" or both");
  }
  if (lo < 0 || hi <= lo || hi > count)
    return diag.report(ctx.loc, DiagKind::WarpsRange, lo, hi, where, count);
  out.lo = base + lo;
  out.hi = base + hi;
  return true;
}

} // namespace exgc::gpu
