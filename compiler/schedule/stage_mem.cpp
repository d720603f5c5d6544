// stage_mem.cpp - work on a copy of a window of a buffer ---------------------//
// stage_mem(p, block, window, name, accum=False, memory=None): around the
// statements of `block`, a buffer `name` (in `memory`, else host memory)
// holds the window `A[lo0:hi0, k]` of `A` (an argument, an allocation or a
// window name such as bind_window's `A_map`; a scalar is named alone, a window
// of no subscripts):
//   name: T[hi0 - lo0] @ memory
//   for name_i0 in seq(0, hi0 - lo0): name[name_i0] = A[lo0 + name_i0, k]   (load)
//   ...block, with A[e0, k] read and written as name[e0 - lo0]...
//   for name_i0 in seq(0, hi0 - lo0): A[lo0 + name_i0, k] = name[name_i0]   (store)
// The load always runs (unless accum), so the store writes back unchanged
// values where the block wrote nothing; the store runs when the block writes
// or reduces into A. With accum=True the copy starts at zero, the block may
// only reduce into A, and the store adds the copy into A (`+=`). The load is
// left out only when the window is one point and the block's first statement
// assigns it without reading it (the loaded value is dead). Where a slice may
// end past A (`hi <= extent` not proven: a tile over a ragged edge), both
// copies run under `if lo0 + name_i0 < extent0 and ...`, so they touch only
// A's part of the window; the rest of the copy is undefined, as it is never
// read: every access of the block lies in the window and, being an access of
// A, inside A.
// Checked (IndexSolver, under the asserts, the scopes around the block and,
// per access, the loops and ifs inside it): the window starts inside A
// (0 <= lo < hi for a slice, 0 <= point < extent), and every access of the
// block to A falls inside the window (slice dims in [lo, hi), point dims equal
// to the point); a failure names the access and gives a counterexample.
// Accesses through windows, window names or whole-buffer call arguments are
// refused: they would escape the rewrite. So are accesses of the buffer a
// staged window name views, by its own name or another window's (one
// resolver, EffectCollector::root_of, says which buffer a name reaches). `memory` is a memory of the table
// (memory_arg.h); what may touch it there is the re-check's to decide.
// Fails when: the window does not parse or is not `A[...]` with one
// subscript per dimension of a buffer (StageWindowShape); it may start
// outside A (StageWindowOutside); an access may fall outside it
// (StageNotCovered); A is reached indirectly (StageIndirectAccess);
// accum=True and the block reads or writes A (StageAccumNotReduce); `name` is
// in use (NameInUse); `memory` is not a memory (UnknownMemory,
// MemoryKindMismatch, MemoryParams). Warns when the block does not access A
// at all (StageUnused): the step is kept, but its copies are dead.
#include <optional>

#include "compiler/analysis/rounding_log.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/memory_arg.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/stage_source.h"

namespace exgc::schedule {
namespace {

struct Dim {
  bool slice;
  Expr lo, hi; // point: lo
};

bool is_zero(const Expr &e) {
  const auto *i = e.as<IntImm>();
  return i && i->value == 0;
}
/// a - b and a + b, leaving out a literal 0 (the default start of a slice).
Expr minus(const Expr &a, const Expr &b) { return is_zero(b) ? a : BinOp::make(BinOpKind::Sub, a, b); }
Expr plus(const Expr &a, const Expr &b) { return is_zero(a) ? b : BinOp::make(BinOpKind::Add, a, b); }

/// Direct element accesses to `buf`, and whether any use is not one.
struct DirectUses : IRVisitor {
  uint32_t buf;
  size_t rank;
  size_t direct = 0;
  bool indirect = false;
  SrcLoc at;
  void visit_node(const Read *op) override {
    if (op->buf.id == buf) {
      if (op->idx.size() == rank)
        ++direct;
      else if (!indirect) {
        indirect = true;
        at = op->loc;
      }
    }
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    if (op->buf.id == buf && !indirect) {
      indirect = true;
      at = op->loc;
    }
    IRVisitor::visit_node(op);
  }
  void visit_node(const Assign *op) override {
    direct += op->buf.id == buf;
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    direct += op->buf.id == buf;
    IRVisitor::visit_node(op);
  }
};

/// Rewrites accesses of `buf` to the staging buffer.
struct ToStage : IRMutator {
  uint32_t buf;
  Sym stage;
  ValueType type;
  std::vector<Dim> dims;
  std::vector<Expr> idx(const std::vector<Expr> &old) {
    std::vector<Expr> out;
    for (size_t d = 0; d < dims.size(); ++d)
      if (dims[d].slice)
        out.push_back(minus(mutate(old[d]), dims[d].lo));
    return out;
  }
  Expr mutate_node(const Read *op, const Expr &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    return Read::make(stage, idx(op->idx), type, op->loc);
  }
  Block mutate_node(const Assign *op, const Stmt &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    return {Assign::make(stage, idx(op->idx), mutate(op->rhs), op->loc)};
  }
  Block mutate_node(const Reduce *op, const Stmt &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    return {Reduce::make(stage, idx(op->idx), mutate(op->rhs), op->loc)};
  }
};

/// Is the window one point that the block's first statement assigns, with
/// a value that does not read it? Then the loaded value is never read, and
/// the load is left out (the reference's rule; the GEMV's `y[m] = 0` first).
bool point_written_first(const analysis::EffectCollector &fx, const Block &stmts, const Sym &buf,
                         const std::vector<Dim> &dims) {
  for (const Dim &d : dims)
    if (d.slice)
      return false;
  const auto *a = stmts.front().as<Assign>();
  SrcLoc at;
  // Every access of the block is proven to be the point, this one too.
  return a && a->buf == buf && !fx.touches(a->rhs, buf, at);
}

struct NameUse : IRVisitor {
  std::vector<std::string> names;
  std::string found;
  void check(const std::string &n) {
    for (const std::string &x : names)
      if (x == n && found.empty())
        found = n;
  }
  void visit_node(const Alloc *op) override {
    check(op->name.name);
    IRVisitor::visit_node(op);
  }
  void visit_node(const For *op) override {
    check(op->iter.name);
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowStmt *op) override {
    check(op->name.name);
    IRVisitor::visit_node(op);
  }
};

/// One stage_mem call: the window parsed and placed, every access of the
/// block checked to stay in it, then the rewrite.
class StageMem {
public:
  StageMem(Interpreter &in, const CallSite &call)
      : in_(in), call_(call), p_(call.proc()), window_(call.arg("window").value.str),
        name_(call.arg("name").value.str), accum_(call.arg("accum").value.int_value != 0),
        stmts_(block_arg(in, p_, call.arg("block").value, call.loc, "stage_mem")),
        ctx_(context_at(p_, stmts_.front())), dep_(solver_) {}

  Value run() {
    parse_window();
    check_names_free();
    place_window();
    check_accesses();
    return Value::of_proc(replace_block(p_, stmts_, rewrite()));
  }

private:
  /// The window: `A[lo:hi, k]`, one subscript per dimension of A.
  void parse_window() {
    const SrcLoc loc = call_.loc;
    FragExprP f;
    FragmentError err;
    if (!parse_expr_fragment(window_, f, err))
      in_.fail(loc, err.syntax ? DiagKind::PatternSyntax : DiagKind::PatternNotSupported, window_,
               err.message);
    // A scalar is staged by its name alone (`acc`): a window of no subscripts.
    const bool indexed = f->kind == FragExpr::Kind::Index;
    const FragExpr &head = indexed ? *f->items[0] : *f;
    const size_t subscripts = indexed ? f->items.size() - 1 : 0;
    if (head.kind != FragExpr::Kind::Name || !find_stage_source(*p_, head.text, src_) ||
        subscripts != src_.type.shape.size())
      in_.fail(loc, DiagKind::StageWindowShape, window_);
    buf_ = src_.sym;
    mem_ = new_buffer_memory(in_, call_.arg("memory"), name_);
    std::map<std::string, Expr> scope = index_names(*p_, ctx_);
    for (size_t d = 1; d <= subscripts; ++d) {
      const FragExpr &s = *f->items[d];
      std::string bad;
      Dim dim;
      dim.slice = s.kind == FragExpr::Kind::Slice;
      if (dim.slice) {
        dim.lo = s.items[0] ? build_index_expr(*s.items[0], scope, bad) : IntImm::make(0);
        dim.hi = s.items[1] && bad.empty() ? build_index_expr(*s.items[1], scope, bad)
                                           : src_.type.shape[d - 1];
      } else {
        dim.lo = build_index_expr(s, scope, bad);
      }
      if (!bad.empty() && !names_unknown(bad))
        in_.fail(loc, DiagKind::NotIndexExpr, window_, bad);
      if (!bad.empty())
        in_.fail(loc, DiagKind::ExprNotAtAlloc, window_, bad, name_);
      if (dim.slice)
        extents_.push_back(fold_constants(minus(dim.hi, dim.lo)));
      dims_.push_back(dim);
    }
  }

  /// The copy and its iterators take names nothing in the proc uses.
  void check_names_free() {
    NameUse names;
    names.names.push_back(name_);
    for (size_t d = 0; d < extents_.size(); ++d)
      names.names.push_back(name_ + "_i" + std::to_string(d));
    names.visit_proc(*p_);
    for (const Arg &a : p_->args)
      names.check(a.name.name);
    if (!names.found.empty())
      in_.fail(call_.loc, DiagKind::NameInUse, names.found, p_->name);
  }

  /// The window starts inside A; where it may end past A (a tile over a
  /// ragged edge), the copies are guarded to A's part of it.
  void place_window() {
    guards_.resize(dims_.size());
    for (size_t d = 0; d < dims_.size(); ++d) {
      const Expr &ext = src_.type.shape[d];
      Expr zero = IntImm::make(0);
      Expr starts = dims_[d].slice ? BinOp::make(BinOpKind::Lt, dims_[d].lo, dims_[d].hi)
                                   : BinOp::make(BinOpKind::Lt, dims_[d].lo, ext);
      Expr inside =
          BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Le, zero, dims_[d].lo), starts);
      require(in_, dep_, ctx_, inside, call_.loc,
              "that window '" + window_ + "' lies inside '" + buf_.name + "'",
              DiagKind::StageWindowOutside, window_, buf_.name, d, print_expr(ext));
      if (dims_[d].slice &&
          dep_.prove(ctx_, BinOp::make(BinOpKind::Le, dims_[d].hi, ext), nullptr) !=
              analysis::Validity::Valid)
        guards_[d] = ext;
    }
  }

  /// Every access of the block to A falls inside the window, reaches A by
  /// A's own name, and (with accum) reduces into it.
  void check_accesses() {
    DirectUses direct;
    direct.buf = buf_.id;
    direct.rank = src_.type.shape.size();
    direct.visit(stmts_);
    // Accesses of a window name stay on it (its own coordinates).
    collector_.emplace(*effects_view(p_, src_), callee_lookup(in_, p_));
    analysis::Effects fx = collector_->of(stmts_);
    // A window name's buffer may be reached by other names too (`w = x[0:8]`
    // and a read of `x`): the copy would hide the block's writes from them.
    const uint32_t root =
        src_.window ? analysis::EffectCollector(*p_, callee_lookup(in_, p_)).root_of(buf_).id
                    : buf_.id;
    size_t through_effects = 0;
    std::string alias; // such an access
    for (const analysis::Access &a : fx.accesses) {
      if (a.buf.id == root && root != buf_.id && !direct.indirect) {
        direct.indirect = true;
        direct.at = a.loc;
        alias = a.text;
      }
      if (a.buf.id != buf_.id)
        continue;
      ++through_effects;
      if (a.anywhere || a.idx.size() != dims_.size()) {
        direct.indirect = true;
        direct.at = a.loc;
        continue;
      }
      writes_ |= a.kind != analysis::AccessKind::Read;
      if (accum_ && a.kind != analysis::AccessKind::Reduce) {
        in_.diag().report(call_.loc, DiagKind::StageAccumNotReduce, buf_.name)
            .note(a.loc, "'" + a.text + "' " + analysis::access_verb(a.kind) + " '" + buf_.name +
                             "' here");
        throw ScriptAbort{};
      }
      check_in_window(a);
    }
    if (through_effects == 0 && !direct.indirect)
      in_.diag().report(call_.loc, DiagKind::StageUnused, buf_.name, name_);
    if (direct.indirect || through_effects != direct.direct) {
      in_.diag().report(call_.loc, DiagKind::StageIndirectAccess, buf_.name)
          .note(direct.at.valid() ? direct.at : stmts_.front()->loc,
                alias.empty() ? "'" + buf_.name + "' is reached here"
                              : "'" + alias + "' reaches the buffer '" + buf_.name + "' views");
      throw ScriptAbort{};
    }
  }

  void check_in_window(const analysis::Access &a) {
    analysis::Context actx = ctx_;
    actx.scopes.insert(actx.scopes.end(), a.scopes.begin(), a.scopes.end());
    for (size_t d = 0; d < dims_.size(); ++d) {
      const Dim &dim = dims_[d];
      Expr goal = dim.slice
                      ? BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Le, dim.lo, a.idx[d]),
                                    BinOp::make(BinOpKind::Lt, a.idx[d], dim.hi))
                      : BinOp::make(BinOpKind::Eq, a.idx[d], dim.lo);
      analysis::Counterexample cex;
      analysis::Validity v = dep_.prove(actx, goal, &cex);
      if (v == analysis::Validity::Unknown)
        fail_unknown(in_, call_.loc, "that '" + a.text + "' lies in window '" + window_ + "'",
                     solver_);
      if (v == analysis::Validity::Invalid) {
        auto rep = in_.diag().report(call_.loc, DiagKind::StageNotCovered, a.text, window_);
        rep.note(a.loc,
                 "'" + a.text + "' " + analysis::access_verb(a.kind) + " '" + buf_.name + "' here");
        if (!cex.values.empty())
          rep.note(call_.loc, "for example " + cex.str());
        throw ScriptAbort{};
      }
    }
  }

  /// The copy's allocation, its load (unless every point is written first),
  /// the block on the copy, and its store back when the block writes.
  Block rewrite() {
    const SrcLoc loc = call_.loc;
    Sym stage = Sym::fresh(name_);
    for (size_t d = 0; d < extents_.size(); ++d)
      iters_.push_back(Sym::fresh(name_ + "_i" + std::to_string(d)));
    std::vector<Expr> stage_idx, buf_idx;
    size_t k = 0;
    for (const Dim &dim : dims_) {
      if (!dim.slice) {
        buf_idx.push_back(dim.lo);
        continue;
      }
      stage_idx.push_back(iter_var(iters_[k]));
      buf_idx.push_back(plus(dim.lo, iter_var(iters_[k])));
      ++k;
    }
    ValueType t = src_.type.scalar;
    // Each copy touches A only inside it: `lo + i < extent` where the window
    // may pass the end of A.
    k = 0;
    for (size_t d = 0; d < dims_.size(); ++d) {
      if (!dims_[d].slice)
        continue;
      if (guards_[d]) {
        Expr at = plus(dims_[d].lo, iter_var(iters_[k]));
        Expr c = BinOp::make(BinOpKind::Lt, at, guards_[d], loc);
        inside_a_ = inside_a_ ? BinOp::make(BinOpKind::And, inside_a_, c, loc) : c;
      }
      ++k;
    }
    Stmt alloc = Alloc::make(stage, Type::data(t, extents_, mem_, false, loc), loc);
    // The block's sums add up in the copy first, then join A's values at once.
    if (accum_ && is_float(t))
      analysis::RoundingLog::record({"adds the " + std::string(value_type_name(t)) +
                                         " sums into '" + buf_.name + "' through the copy '" +
                                         stage.name + "'",
                                     t});
    Stmt load = accum_ ? nest(Assign::make(stage, stage_idx, FloatImm::make(0.0), loc), false)
                       : nest(Assign::make(stage, stage_idx, Read::make(buf_, buf_idx, t, loc), loc),
                              false);
    Stmt store =
        accum_ ? nest(Reduce::make(buf_, buf_idx, Read::make(stage, stage_idx, t, loc), loc), true)
               : nest(Assign::make(buf_, buf_idx, Read::make(stage, stage_idx, t, loc), loc), true);
    ToStage r;
    r.buf = buf_.id;
    r.stage = stage;
    r.type = t;
    r.dims = dims_;
    Block staged{alloc};
    if (!point_written_first(*collector_, stmts_, buf_, dims_))
      staged.push_back(load);
    for (const Stmt &s : stmts_)
      for (const Stmt &x : r.mutate(s))
        staged.push_back(x);
    if (writes_)
      staged.push_back(store);
    return staged;
  }

  /// `body` in the copy's loop nest, guarded to A; the store nest (`second`)
  /// gets its own iterators: every binding is a distinct Sym.
  Stmt nest(Stmt body, bool second) {
    if (inside_a_)
      body = If::make(inside_a_, {body}, {}, call_.loc);
    std::map<uint32_t, Expr> fresh;
    std::vector<Sym> its = iters_;
    if (second)
      for (Sym &it : its) {
        Sym f = Sym::fresh(it.name);
        fresh[it.id] = iter_var(f);
        it = f;
      }
    if (second)
      body = copy_block({body}, fresh, true).front();
    for (size_t d = extents_.size(); d-- > 0;)
      body = For::make(its[d], IntImm::make(0), extents_[d], LoopMode{}, {body}, call_.loc);
    return body;
  }

  Interpreter &in_;
  const CallSite &call_;
  const Proc &p_;
  const std::string &window_, &name_;
  const bool accum_;
  Block stmts_;
  analysis::Context ctx_;
  StageSource src_;
  Sym buf_;
  Expr mem_;
  std::vector<Dim> dims_;
  std::vector<Expr> extents_, guards_;
  analysis::IndexSolver solver_;
  analysis::DependenceAnalyzer dep_;
  std::optional<analysis::EffectCollector> collector_;
  bool writes_ = false;
  std::vector<Sym> iters_;
  Expr inside_a_;
};

} // namespace

Value stage_mem(Interpreter &in, const CallSite &call) { return StageMem(in, call).run(); }

} // namespace exgc::schedule
