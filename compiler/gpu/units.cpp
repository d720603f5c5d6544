// units.cpp - collective units as written in `.exg` ------------------------//
#include "compiler/gpu/units.h"

#include "compiler/ir/printer.h"

namespace exgc::gpu {

bool int_literal(const Expr &e, int64_t &v) {
  if (const auto *i = e.as<IntImm>()) {
    v = i->value;
    return true;
  }
  return false;
}

namespace {

/// A unit and which box coordinate `k *` scales (-1: not scalable).
struct Shape {
  std::vector<int64_t> domain, box;
  int scaled = -1;
};

/// A parametric unit without its parameters is no unit.
std::optional<Shape> base_unit(UnitKind u, const std::vector<int64_t> &args, const DeviceEnv &env) {
  const int64_t B = env.block_dim, C = env.cluster_dim;
  if (analysis::unit_arity(u) > 0 && args.size() != size_t(analysis::unit_arity(u)))
    return std::nullopt;
  switch (u) {
  case UnitKind::StandaloneThread: return Shape{{1}, {1}, 0};
  case UnitKind::CudaThread: return Shape{{B}, {1}, 0};
  case UnitKind::CudaWarp: return Shape{{B}, {32}, 0};
  case UnitKind::CudaWarpgroup: return Shape{{B}, {128}, 0};
  case UnitKind::CudaQuadpair: return Shape{{B / 16, 16}, {2, 4}, -1};
  case UnitKind::CudaThreadsStrided: return Shape{{B / args[1], args[1]}, {1, args[0]}, 0};
  case UnitKind::CudaWarpInCluster: return Shape{{C, B}, {1, 32}, 0};
  case UnitKind::CudaCtaInCluster: return Shape{{C * B}, {B}, 0};
  case UnitKind::CudaCluster: return Shape{{C * B}, {C * B}, -1};
  case UnitKind::CudaCtaInClusterStrided: return Shape{{C / args[0], args[0], B}, {1, 1, B}, 0};
  case UnitKind::CudaWarpInClusterStrided: return Shape{{C / args[0], args[0], B}, {1, 1, 32}, 0};
  case UnitKind::CudaAgnosticSubCta: return Shape{{C, B}, {1, kAny}, -1};
  case UnitKind::CudaAgnosticIntactCta: return Shape{{C, B}, {kAny, B}, -1};
  }
  return std::nullopt;
}

std::optional<CollUnit> finish(const std::string &name, Shape s, int64_t k, const DeviceEnv &env,
                               std::string &err) {
  for (int64_t d : s.domain)
    if (d < 1) {
      err = "the unit '" + name + "' does not fit blockDim=" + std::to_string(env.block_dim) +
            ", clusterDim=" + std::to_string(env.cluster_dim);
      return std::nullopt;
    }
  if (k != 1) {
    if (s.scaled < 0) {
      err = "the unit in '" + name + "' cannot be scaled";
      return std::nullopt;
    }
    s.box[static_cast<size_t>(s.scaled)] *= k;
  }
  CollUnit u;
  u.domain = s.domain;
  u.box = s.box;
  u.scalable = s.scaled >= 0;
  u.name = "'" + name + "'";
  return u;
}

} // namespace

std::optional<CollUnit> named_unit(UnitKind unit, const DeviceEnv &env, int64_t k) {
  std::optional<Shape> s = base_unit(unit, {}, env);
  std::string err;
  if (!s)
    return std::nullopt;
  return finish(analysis::unit_name(unit), *s, k, env, err);
}

std::optional<CollUnit> eval_unit(const Expr &e, const DeviceEnv &env, std::string &err) {
  std::string text = print_expr(e);
  int64_t k = 1;
  Expr u = e;
  if (const auto *m = e.as<BinOp>(); m && m->op == BinOpKind::Mul) {
    if (int_literal(m->a, k))
      u = m->b;
    else if (int_literal(m->b, k))
      u = m->a;
    else {
      err = "'" + text + "' is not a collective unit";
      return std::nullopt;
    }
    if (k < 1) {
      err = "the scale of '" + text + "' must be a positive integer";
      return std::nullopt;
    }
  }
  std::string name;
  std::vector<int64_t> args;
  if (const auto *v = u.as<Var>()) {
    name = v->name.name;
  } else if (const auto *c = u.as<Call>()) {
    name = c->func;
    for (const Expr &a : c->args) {
      int64_t x;
      if (!int_literal(a, x) || x < 1) {
        err = "the parameters of '" + text + "' must be positive integers";
        return std::nullopt;
      }
      args.push_back(x);
    }
    if (args.size() == 2 && env.block_dim % args[1] != 0) {
      err = "the stride of '" + text + "' must divide blockDim=" + std::to_string(env.block_dim);
      return std::nullopt;
    }
    if (args.size() == 1 && env.cluster_dim % args[0] != 0) {
      err = "the stride of '" + text + "' must divide clusterDim=" +
            std::to_string(env.cluster_dim);
      return std::nullopt;
    }
  }
  std::optional<UnitKind> kind = analysis::unit_kind(name);
  std::optional<Shape> s = kind ? base_unit(*kind, args, env) : std::nullopt;
  if (!s) {
    err = "'" + text + "' is not a collective unit";
    return std::nullopt;
  }
  return finish(text, *s, k, env, err);
}

} // namespace exgc::gpu
