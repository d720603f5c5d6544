// derived_sizes.cpp - sizes a `check` adds to the declared ones -------------//
#include "compiler/synclower/derived_sizes.h"

#include <map>
#include <set>

#include "compiler/analysis/effects.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/visitor.h"

namespace exgc::synclower {

namespace {

/// Every ring dimension of a barrier allocation: its name, depth and extent.
struct RingDim {
  std::string name;
  int64_t depth = 0;
  Expr extent;
};

/// Every mbarrier ring and every `cuda_tasks` loop's extent.
class ExtentFinder : public IRVisitor {
public:
  std::vector<RingDim> rings;
  std::vector<std::pair<std::string, Expr>> task_loops; // iterator name, hi - lo

protected:
  void visit_node(const For *f) override {
    if (f->mode.kind() == LoopKind::CudaTasks)
      task_loops.push_back({f->iter.name, BinOp::make(BinOpKind::Sub, f->hi, f->lo)});
    IRVisitor::visit_node(f);
  }
  void visit_node(const Alloc *a) override {
    if (a->type.kind != Type::Kind::Barrier)
      return;
    for (size_t d = 0; d < a->type.ring.size() && d < a->type.shape.size(); ++d)
      if (const auto *r = a->type.ring[d] ? a->type.ring[d].as<IntImm>() : nullptr)
        rings.push_back({a->name.name, r->value, a->type.shape[d]});
  }
};

/// `e` at the sizes `values`, when it folds to an integer (or a bool: 0/1).
bool evaluate(const Expr &e, const std::map<uint32_t, Expr> &values, int64_t &out) {
  Expr v = fold_constants(analysis::substitute(e, values));
  if (const auto *i = v.as<IntImm>())
    return out = i->value, true;
  if (const auto *b = v.as<BoolImm>())
    return out = b->value, true;
  return false;
}

class Deriver {
public:
  Deriver(const ProcNode &proc, const CheckRequest &declared) : proc_(proc), declared_(declared) {
    for (const KwArg &k : declared.sizes)
      if (const Arg *a = proc.find_arg(k.key); a && k.value.as<IntImm>())
        values_[a->name.id] = k.value;
  }

  std::vector<CheckRequest> run() {
    ExtentFinder f;
    f.visit(proc_.body);
    std::set<std::vector<int64_t>> seen{key(values_)};
    std::vector<CheckRequest> out;
    for (const RingDim &r : f.rings)
      for (const Arg *a : sizes_in(r.extent)) {
        for (int64_t t = 2 * r.depth; t < 3 * r.depth; ++t) {
          std::map<uint32_t, Expr> at = values_;
          if (!solve(r.extent, *a, t, at, false) || !seen.insert(key(at)).second)
            continue;
          out.push_back(request(at, "ring '" + r.name + "' of " + std::to_string(r.depth) +
                                        " slots holds " + std::to_string(t) + " elements"));
        }
      }
    // Edges: two tasks along each task loop, the second as small as it gets
    // (a ragged tile) and as large (whole tiles).
    for (const auto &[iter, extent] : f.task_loops)
      for (const Arg *a : sizes_in(extent)) {
        for (bool largest : {false, true}) {
          std::map<uint32_t, Expr> at = values_;
          if (!solve(extent, *a, 2, at, largest) || !seen.insert(key(at)).second)
            continue;
          out.push_back(request(at, std::string(largest ? "the largest " : "the smallest ") +
                                        a->name.name + " with 2 tasks of '" + iter + "' (" +
                                        (largest ? "whole tiles" : "a ragged last task") + ")"));
        }
      }
    return out;
  }

private:
  /// The control arguments `extent` depends on.
  std::vector<const Arg *> sizes_in(const Expr &extent) const {
    std::vector<const Arg *> out;
    for (const Arg &a : proc_.args)
      if (a.type.kind == Type::Kind::Control && analysis::mentions(extent, a.name))
        out.push_back(&a);
    return out;
  }

  /// The smallest (or largest) value of `a` (others as in `at`) where
  /// `extent` is `t` and every precondition holds; false when there is none
  /// nearby.
  bool solve(const Expr &extent, const Arg &a, int64_t t, std::map<uint32_t, Expr> &at,
             bool largest) const {
    auto extent_at = [&](int64_t v, int64_t &e) {
      at[a.name.id] = IntImm::make(v);
      return evaluate(extent, at, e);
    };
    // The first v with extent >= t, by doubling then bisection (extents of
    // rings grow with the sizes they depend on).
    int64_t hi = 1, e = 0;
    while (hi < (int64_t(1) << 30) && extent_at(hi, e) && e < t)
      hi *= 2;
    if (!extent_at(hi, e) || e < t)
      return false;
    int64_t lo = 0;
    while (hi - lo > 1) {
      int64_t mid = lo + (hi - lo) / 2;
      if (extent_at(mid, e) && e >= t)
        hi = mid;
      else
        lo = mid;
    }
    // [first, last]: the values where the extent is t (at most 4096 of them).
    const int64_t first = hi;
    int64_t last = first;
    while (last < first + 4096 && extent_at(last + 1, e) && e == t)
      ++last;
    if (!extent_at(first, e) || e != t)
      return false;
    for (int64_t i = 0; i <= last - first; ++i) {
      int64_t v = largest ? last - i : first + i;
      extent_at(v, e);
      if (preconditions_hold(at))
        return true;
    }
    return false;
  }

  bool preconditions_hold(const std::map<uint32_t, Expr> &at) const {
    for (const Expr &p : proc_.preds) {
      int64_t v = 0;
      if (!evaluate(analysis::size_conditions(p), at, v) || !v)
        return false;
    }
    return true;
  }

  std::vector<int64_t> key(const std::map<uint32_t, Expr> &at) const {
    std::vector<int64_t> k;
    for (const auto &[id, e] : at)
      k.push_back(e.as<IntImm>()->value);
    return k;
  }

  CheckRequest request(const std::map<uint32_t, Expr> &at, const std::string &why) const {
    CheckRequest r = declared_;
    r.derived = why;
    for (KwArg &k : r.sizes)
      if (const Arg *a = proc_.find_arg(k.key); a && at.count(a->name.id))
        k.value = at.at(a->name.id);
    return r;
  }

  const ProcNode &proc_;
  const CheckRequest &declared_;
  std::map<uint32_t, Expr> values_;
};

} // namespace

std::vector<CheckRequest> derived_checks(const ProcNode &proc, const CheckRequest &declared) {
  return Deriver(proc, declared).run();
}

} // namespace exgc::synclower
