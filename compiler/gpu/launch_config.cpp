// launch_config.cpp - the keywords of a CudaDeviceFunction -----------------//
#include "compiler/gpu/launch_config.h"

#include "compiler/gpu/units.h"

namespace exgc::gpu {

namespace {

struct Limit {
  const char *key;
  int64_t &(*field)(LaunchConfig &);
  int64_t lo, hi;
  const char *range; // for the message
  bool power_of_two = false;
  int64_t multiple_of = 1;
};

const Limit kLimits[] = {
    {"blockDim", [](LaunchConfig &c) -> int64_t & { return c.env.block_dim; }, 32, 1024,
     "a multiple of 32 from 32 to 1024", false, 32},
    {"blocks_per_sm", [](LaunchConfig &c) -> int64_t & { return c.blocks_per_sm; }, 1, 32,
     "an integer from 1 to 32"},
    {"task_group", [](LaunchConfig &c) -> int64_t & { return c.task_group; }, 1, 65535,
     "an integer from 1 to 65535"},
    {"clusterDim", [](LaunchConfig &c) -> int64_t & { return c.env.cluster_dim; }, 1, 16,
     "a power of 2 from 1 to 16", true},
};

} // namespace

bool read_launch_config(const With *w, DiagEngine &diag, LaunchConfig &cfg) {
  const auto *c = w->ctx.as<Call>(); // the typecheck refuses a bare name
  if (w->context() != ContextKind::CudaDeviceFunction)
    return false;
  for (const KwArg &k : c->kwargs) {
    if (k.key == "warps" && k.value) {
      cfg.warps = &k.value;
      continue;
    }
    for (const Limit &l : kLimits) {
      if (k.key != l.key)
        continue;
      int64_t v = 0;
      bool ok = k.value && int_literal(k.value, v) && v >= l.lo && v <= l.hi &&
                v % l.multiple_of == 0 && (!l.power_of_two || (v & (v - 1)) == 0);
      if (!ok)
        return diag.report(k.loc.valid() || !k.value ? k.loc : k.value->loc,
                           DiagKind::BadDeviceFunctionParam, l.key, l.range);
      l.field(cfg) = v;
    }
  }
  if (!cfg.env.block_dim && !cfg.warps)
    return diag.report(w->ctx->loc, DiagKind::BadDeviceFunctionParam, "blockDim",
                       "given, or warp roles with 'warps='");
  return true;
}

} // namespace exgc::gpu
