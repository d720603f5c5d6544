// build_proc.cpp - parse tree -> IR for one proc or instr ------------------//
//
// Owns: name resolution inside a proc (scopes of arguments, allocations, loop
// iterators and window names), types, statements and expressions. The rules
// it guarantees are listed in build.h. Positions: "value" expressions compute
// (right-hand sides, indices, bounds, conditions, asserts, call arguments)
// and must only name declared things; "annotation" expressions describe
// (memories, units, contexts, loop-mode keywords, instr attributes) and may
// name global descriptors, which become Var(Sym::global(name), Meta).
#include <cmath>
#include <limits>
#include <map>

#include "compiler/frontend/build_internal.h"

namespace exgc::build_detail {

namespace {

enum class Pos { Value, Annot };

/// What a name in scope denotes, as far as building needs to know.
struct NameInScope {
  enum class Kind { Control, ScalarArg, Buffer, Barrier };
  Sym sym;
  Kind kind;
  ValueType type; // control type, or the element type; Meta for barriers
};

/// The kind of a declared type, read from its head before the type is built
/// (arguments are bound before any argument type is built, so that a type
/// can name any argument).
struct TypeHead {
  enum class Form { Control, Data, Window, Barrier, None } form = Form::None;
  ValueType type = ValueType::Meta;
  bool has_dims = false;
};

TypeHead type_head(P::ExprContext *e) {
  TypeHead h;
  e = strip_parens(e);
  if (auto *an = dynamic_cast<P::AnnotExprContext *>(e))
    e = strip_parens(an->expr(0));
  std::string name = bare_name(e);
  bool window = false;
  if (name.empty()) {
    auto *ix = dynamic_cast<P::IndexExprContext *>(e);
    if (!ix)
      return h;
    h.has_dims = true;
    name = bare_name(ix->expr());
    if (name.empty()) {
      // `[T][dims]`: a window type.
      auto *a = dynamic_cast<P::AtomExprContext *>(strip_parens(ix->expr()));
      auto *l = a ? dynamic_cast<P::ListAtomContext *>(a->atom()) : nullptr;
      if (!l || l->expr().size() != 1)
        return h;
      name = bare_name(l->expr(0));
      window = true;
    }
  }
  if (name == "barrier" && !window) {
    h.form = TypeHead::Form::Barrier;
    return h;
  }
  ValueType vt;
  if (!parse_value_type(name, vt))
    return h;
  if (is_control(vt)) {
    h.form = window ? TypeHead::Form::None : TypeHead::Form::Control;
  } else {
    h.form = window ? TypeHead::Form::Window : TypeHead::Form::Data;
  }
  h.type = vt;
  return h;
}

class ProcBuilder {
public:
  ProcBuilder(const parse::ParsedFile &pf, DiagEngine &diag) : pf_(pf), diag_(diag) {}

  Proc build(P::ProcDeclContext *d) {
    auto p = std::make_shared<ProcNode>();
    proc_ = p.get();
    p->name = text_of(d->NAME());
    p->is_instr = d->kind->getType() == P::INSTR;
    p->loc = pf_.loc(d->NAME()->getSymbol());
    scopes_.emplace_back();
    signature(d->params());
    body(d->suite());
    scopes_.pop_back();
    return p;
  }

private:
  template <typename... Args>
  [[noreturn]] void error_at(antlr4::ParserRuleContext *e, DiagKind k, const Args &...args) {
    fail(diag_, pf_.loc(e), k, args...);
  }
  SrcLoc loc(antlr4::ParserRuleContext *c) const { return pf_.loc(c); }
  SrcLoc loc(antlr4::tree::TerminalNode *n) const { return pf_.loc(n->getSymbol()); }

  // --- Scopes ------------------------------------------------------------------

  const NameInScope *lookup(const std::string &name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto b = it->find(name);
      if (b != it->end())
        return &b->second;
    }
    return nullptr;
  }

  /// Binds a fresh Sym in the innermost scope. Redeclaring a name is the
  /// typecheck's error (DuplicateName); here the newest binding wins.
  Sym bind(const std::string &name, NameInScope::Kind kind, ValueType type) {
    Sym s = Sym::fresh(name);
    scopes_.back()[name] = NameInScope{s, kind, type};
    return s;
  }

  struct ScopeGuard {
    explicit ScopeGuard(ProcBuilder &b) : b_(b) { b_.scopes_.emplace_back(); }
    ~ScopeGuard() { b_.scopes_.pop_back(); }
    ProcBuilder &b_;
  };

  static NameInScope::Kind kind_of(const TypeHead &h) {
    switch (h.form) {
    case TypeHead::Form::Control: return NameInScope::Kind::Control;
    case TypeHead::Form::Barrier: return NameInScope::Kind::Barrier;
    case TypeHead::Form::Data:
      return h.has_dims ? NameInScope::Kind::Buffer : NameInScope::Kind::ScalarArg;
    case TypeHead::Form::Window:
    case TypeHead::Form::None: return NameInScope::Kind::Buffer;
    }
    return NameInScope::Kind::Buffer;
  }

  // --- Signature -----------------------------------------------------------------

  void signature(P::ParamsContext *ps) {
    if (!ps)
      return;
    std::vector<P::ParamContext *> params = ps->param();
    std::map<std::string, SrcLoc> seen;
    for (P::ParamContext *q : params) {
      std::string n = text_of(q->NAME());
      auto [it, fresh] = seen.emplace(n, loc(q->NAME()));
      if (!fresh) {
        diag_.report(loc(q->NAME()), DiagKind::DuplicateArgument, n)
            .note(it->second, "'" + n + "' was first declared here");
        throw BuildAbort{};
      }
      TypeHead h = type_head(q->expr());
      Arg a;
      a.name = bind(n, kind_of(h), h.form == TypeHead::Form::Barrier ? ValueType::Meta : h.type);
      a.loc = loc(q->NAME());
      proc_->args.push_back(a);
    }
    for (size_t i = 0; i < params.size(); ++i)
      proc_->args[i].type = type(params[i]->expr());
  }

  // --- Types ---------------------------------------------------------------------

  Type type(P::ExprContext *e) {
    SrcLoc tloc = loc(e);
    P::ExprContext *base = strip_parens(e);
    Expr mem;
    if (auto *an = dynamic_cast<P::AnnotExprContext *>(base)) {
      base = strip_parens(an->expr(0));
      mem = expr(an->expr(1), Pos::Annot);
    }
    TypeHead h = type_head(base);
    auto *ix = dynamic_cast<P::IndexExprContext *>(base);
    switch (h.form) {
    case TypeHead::Form::None:
      error_at(e, DiagKind::ExpectedType, source_text(pf_, e));
    case TypeHead::Form::Control:
      if (ix)
        error_at(ix->subscripts(), DiagKind::ControlTypeShape, value_type_name(h.type));
      if (mem)
        error_at(e, DiagKind::ControlTypeShape, value_type_name(h.type));
      return Type::control(h.type, tloc);
    case TypeHead::Form::Data:
    case TypeHead::Form::Window: {
      std::vector<Expr> shape;
      if (ix)
        for (P::SubscriptContext *s : ix->subscripts()->subscript())
          shape.push_back(dim(s));
      return Type::data(h.type, std::move(shape), mem, h.form == TypeHead::Form::Window, tloc);
    }
    case TypeHead::Form::Barrier: {
      std::vector<Expr> shape, ring;
      bool any_ring = false;
      if (ix)
        for (P::SubscriptContext *s : ix->subscripts()->subscript()) {
          auto *pt = dynamic_cast<P::PointSubContext *>(s);
          auto *an = pt ? dynamic_cast<P::AnnotExprContext *>(strip_parens(pt->expr())) : nullptr;
          if (!an) {
            shape.push_back(dim(s));
            ring.push_back(Expr());
            continue;
          }
          // `(n) @ ring(R)`: n logical barriers served by R physical ones.
          shape.push_back(expr(an->expr(0), Pos::Value));
          ring.push_back(ring_size(an->expr(1)));
          any_ring = true;
        }
      if (!any_ring)
        ring.clear();
      return Type::barrier(std::move(shape), std::move(ring), mem, tloc);
    }
    }
    EXGC_UNREACHABLE("type form");
  }

  Expr dim(P::SubscriptContext *s) {
    auto *pt = dynamic_cast<P::PointSubContext *>(s);
    if (!pt)
      fail(diag_, loc(s), DiagKind::SliceInType);
    return expr(pt->expr(), Pos::Value);
  }

  /// `ring(R)` -> R.
  Expr ring_size(P::ExprContext *e) {
    auto *c = dynamic_cast<P::CallExprContext *>(strip_parens(e));
    if (!c || dotted_name(c->expr()) != "ring")
      error_at(e, DiagKind::BadRingAnnotation, source_text(pf_, e));
    CallArgs a = split_args(c->args(), pf_, diag_);
    if (a.pos.size() != 1 || !a.kw.empty())
      error_at(e, DiagKind::BadRingAnnotation, source_text(pf_, e));
    return expr(a.pos[0], Pos::Value);
  }

  // --- Body ----------------------------------------------------------------------

  /// Where the top level of the body is: attribute lines, then asserts, then
  /// statements. Nested blocks are always in the statement phase.
  enum class Phase { Attrs, Asserts, Stmts };

  void body(P::SuiteContext *s) {
    phase_ = Phase::Attrs;
    top_level_ = true;
    proc_->body = suite_stmts(s);
  }

  Block suite(P::SuiteContext *s) {
    ScopeGuard g(*this);
    bool outer = top_level_;
    top_level_ = false;
    Block b = suite_stmts(s);
    top_level_ = outer;
    return b;
  }

  Block suite_stmts(P::SuiteContext *s) {
    Block out;
    if (auto *simple = s->simpleStmt())
      simple_stmt(simple, out);
    for (P::StmtContext *st : s->stmt())
      stmt(st, out);
    return out;
  }

  void stmt(P::StmtContext *s, Block &out) {
    if (auto *simple = s->simpleStmt())
      return simple_stmt(simple, out);
    phase_ = Phase::Stmts;
    if (auto *i = s->ifStmt())
      return out.push_back(if_stmt(i));
    if (auto *f = s->forStmt())
      return out.push_back(for_stmt(f));
    if (auto *w = s->withStmt()) {
      Expr ctx = expr(w->expr(), Pos::Annot);
      Block b = suite(w->suite());
      return out.push_back(With::make(ctx, std::move(b), loc(w)));
    }
  }

  /// An attribute line: a known key whose value is not a type, or, in an
  /// instr before its first statement, any key whose value is not a type (the
  /// typecheck names unknown keys).
  bool is_attr_line(P::DeclStmtContext *d) const {
    std::vector<P::ExprContext *> vs = d->expr();
    if (vs.size() == 1 && type_head(vs[0]).form != TypeHead::Form::None)
      return false;
    std::string key = text_of(d->NAME());
    return is_attr_key(key) || (proc_->is_instr && top_level_ && phase_ == Phase::Attrs);
  }

  void simple_stmt(P::SimpleStmtContext *s, Block &out) {
    if (auto *d = dynamic_cast<P::DeclStmtContext *>(s)) {
      if (is_attr_line(d))
        return attr_line(d);
      phase_ = Phase::Stmts;
      return out.push_back(alloc(d));
    }
    if (auto *a = dynamic_cast<P::AssertStmtContext *>(s)) {
      if (!top_level_ || phase_ == Phase::Stmts)
        fail(diag_, loc(a), DiagKind::AssertNotAtTop);
      phase_ = Phase::Asserts;
      proc_->preds.push_back(expr(a->expr(), Pos::Value));
      return;
    }
    phase_ = Phase::Stmts;
    if (auto *p = dynamic_cast<P::PassStmtContext *>(s))
      return out.push_back(Pass::make(loc(p)));
    if (auto *r = dynamic_cast<P::ReturnStmtContext *>(s))
      fail(diag_, loc(r), DiagKind::NotInProc, "'return'");
    if (auto *a = dynamic_cast<P::AssignStmtContext *>(s))
      return out.push_back(assign(a));
    if (auto *e = dynamic_cast<P::ExprStmtContext *>(s))
      return out.push_back(expr_stmt(e));
    EXGC_UNREACHABLE("simple statement form");
  }

  void attr_line(P::DeclStmtContext *d) {
    std::string key = text_of(d->NAME());
    if (!top_level_ || phase_ != Phase::Attrs)
      fail(diag_, loc(d), DiagKind::AttrAfterStatement, key);
    InstrAttr a;
    a.key = key;
    a.loc = loc(d);
    for (P::ExprContext *v : d->expr())
      a.values.push_back(expr(v, Pos::Annot));
    proc_->attrs.push_back(std::move(a));
  }

  Stmt alloc(P::DeclStmtContext *d) {
    std::vector<P::ExprContext *> vs = d->expr();
    if (vs.size() != 1)
      error_at(vs[1], DiagKind::ExpectedType, source_text(pf_, vs[1]));
    std::string n = text_of(d->NAME());
    Type t = type(vs[0]);
    if (t.kind == Type::Kind::Control)
      fail(diag_, loc(d->NAME()), DiagKind::ControlAlloc, n, value_type_name(t.scalar));
    NameInScope::Kind k = t.kind == Type::Kind::Barrier ? NameInScope::Kind::Barrier
                                                        : NameInScope::Kind::Buffer;
    Sym s = bind(n, k, t.kind == Type::Kind::Barrier ? ValueType::Meta : t.scalar);
    return Alloc::make(s, std::move(t), loc(d));
  }

  /// `x = e`, `x[i] = e`, `x[i] += e`, and window statements
  /// `y = x[a:b, i]` / `m = A[:, :] @ Sm90_tensorMap(...)`.
  Stmt assign(P::AssignStmtContext *a) {
    P::ExprContext *lhs = strip_parens(a->expr(0));
    P::ExprContext *rhs = strip_parens(a->expr(1));
    bool reduce = a->op->getType() == P::PLUS_ASSIGN;
    auto *an = dynamic_cast<P::AnnotExprContext *>(rhs);
    auto *rix = dynamic_cast<P::IndexExprContext *>(an ? strip_parens(an->expr(0)) : rhs);
    bool window = !reduce && (an || (rix && has_slice(rix)));
    if (window) {
      std::string n = bare_name(lhs);
      if (an && (n.empty() || !rix))
        error_at(an, DiagKind::MisplacedAnnotation);
      if (n.empty())
        error_at(lhs, DiagKind::InvalidAssignTarget, "this expression; a window binds a name");
      Expr w = window_expr(rix, Pos::Value);
      Expr mem = an ? expr(an->expr(1), Pos::Annot) : Expr();
      const NameInScope *src = lookup(bare_name(rix->expr()));
      Sym s = bind(n, NameInScope::Kind::Buffer, src ? src->type : ValueType::Meta);
      return WindowStmt::make(s, w, mem, loc(a));
    }
    Sym buf;
    std::vector<Expr> idx;
    target(lhs, buf, idx); // first, so errors come in source order
    Expr value = expr(rhs, Pos::Value);
    if (reduce)
      return Reduce::make(buf, std::move(idx), value, loc(a));
    return Assign::make(buf, std::move(idx), value, loc(a));
  }

  void target(P::ExprContext *lhs, Sym &buf, std::vector<Expr> &idx) {
    P::ExprContext *base = lhs;
    auto *ix = dynamic_cast<P::IndexExprContext *>(lhs);
    if (ix)
      base = strip_parens(ix->expr());
    std::string n = bare_name(base);
    if (n.empty())
      error_at(lhs, DiagKind::InvalidAssignTarget, "this expression");
    const NameInScope *b = lookup(n);
    if (!b)
      error_at(base, DiagKind::UndeclaredName, n);
    if (b->kind == NameInScope::Kind::Control)
      error_at(base, DiagKind::InvalidAssignTarget, "'" + n + "', a control value");
    if (ix && has_slice(ix))
      error_at(lhs, DiagKind::InvalidAssignTarget, "a window");
    buf = b->sym;
    if (ix)
      for (P::SubscriptContext *s : ix->subscripts()->subscript())
        idx.push_back(expr(dynamic_cast<P::PointSubContext *>(s)->expr(), Pos::Value));
  }

  Stmt expr_stmt(P::ExprStmtContext *e) {
    std::vector<P::ExprContext *> parts = e->expr();
    auto *call = dynamic_cast<P::CallExprContext *>(strip_parens(parts[0]));
    std::string callee = call ? dotted_name(call->expr()) : "";
    if (callee.empty())
      error_at(parts[0], DiagKind::NotAStatement, source_text(pf_, parts[0]));
    std::vector<Expr> bars;
    for (size_t i = 1; i < parts.size(); ++i)
      bars.push_back(barrier_ref(parts[i]));
    CallArgs args = split_args(call->args(), pf_, diag_);
    SrcLoc cloc = loc(e);
    if (callee == "Fence" || callee == "Arrive" || callee == "Await")
      return sync_stmt(callee, args, std::move(bars), call, cloc);
    std::vector<Expr> pos;
    for (P::ExprContext *p : args.pos)
      pos.push_back(expr(p, Pos::Value));
    return CallStmt::make(callee, std::move(pos), kwargs(args, Pos::Value), std::move(bars),
                          cloc);
  }

  /// Fence(L1, L2); Arrive(L) >> bar ...; Await(bar, L, n).
  Stmt sync_stmt(const std::string &what, const CallArgs &args, std::vector<Expr> bars,
                 P::CallExprContext *call, SrcLoc sloc) {
    const char *form = what == "Fence"    ? "Fence(timeline, timeline)"
                       : what == "Arrive" ? "Arrive(timeline) >> barrier"
                                          : "Await(barrier, timeline, count)";
    auto timeline = [&](P::ExprContext *e) {
      std::string n = bare_name(e);
      if (n.empty())
        error_at(e, DiagKind::BadSyncArgs, what, form);
      return n;
    };
    if (!args.kw.empty())
      fail(diag_, loc(args.kw[0].first), DiagKind::BadSyncArgs, what, form);
    if (what == "Fence") {
      if (args.pos.size() != 2 || !bars.empty())
        fail(diag_, sloc, DiagKind::BadSyncArgs, what, form);
      return Fence::make(timeline(args.pos[0]), timeline(args.pos[1]), sloc);
    }
    if (what == "Arrive") {
      if (args.pos.size() != 1 || bars.empty())
        fail(diag_, sloc, DiagKind::BadSyncArgs, what, form);
      return Arrive::make(timeline(args.pos[0]), std::move(bars), sloc);
    }
    if (args.pos.size() != 3 || !bars.empty())
      fail(diag_, sloc, DiagKind::BadSyncArgs, what, form);
    Expr bar = barrier_ref(args.pos[0]);
    return Await::make(bar, timeline(args.pos[1]), expr(args.pos[2], Pos::Value), sloc);
  }

  Stmt if_stmt(P::IfStmtContext *i) {
    Expr cond = expr(i->expr(), Pos::Value);
    Block then_body = suite(i->suite());
    std::vector<P::ElifClauseContext *> elifs = i->elifClause();
    std::vector<std::pair<Expr, Block>> arms;
    for (P::ElifClauseContext *el : elifs) {
      Expr c = expr(el->expr(), Pos::Value);
      arms.push_back({c, suite(el->suite())});
    }
    Block else_body;
    if (auto *e = i->elseClause())
      else_body = suite(e->suite());
    // Build the elif chain from the last one up: each is an If alone in the
    // previous one's else body.
    for (size_t k = elifs.size(); k-- > 0;) {
      Stmt s = If::make(arms[k].first, std::move(arms[k].second), std::move(else_body),
                        loc(elifs[k]));
      else_body = Block{s};
    }
    return If::make(cond, std::move(then_body), std::move(else_body), loc(i));
  }

  /// `for i in MODE(lo, hi, key=value...)`.
  Stmt for_stmt(P::ForStmtContext *f) {
    auto *call = dynamic_cast<P::CallExprContext *>(strip_parens(f->expr()));
    std::string mode = call ? bare_name(call->expr()) : "";
    if (mode.empty())
      error_at(f->expr(), DiagKind::BadLoopHeader, source_text(pf_, f->expr()));
    CallArgs args = split_args(call->args(), pf_, diag_);
    if (args.pos.size() != 2)
      error_at(f->expr(), DiagKind::BadLoopHeader, source_text(pf_, f->expr()));
    Expr lo = expr(args.pos[0], Pos::Value);
    Expr hi = expr(args.pos[1], Pos::Value);
    LoopMode m;
    m.name = mode;
    m.kwargs = kwargs(args, Pos::Annot);
    ScopeGuard g(*this);
    Sym iter = bind(text_of(f->NAME()), NameInScope::Kind::Control, ValueType::Index);
    bool outer = top_level_;
    top_level_ = false;
    Block body = suite_stmts(f->suite());
    top_level_ = outer;
    return For::make(iter, lo, hi, std::move(m), std::move(body), loc(f));
  }

  // --- Expressions -----------------------------------------------------------------

  std::vector<KwArg> kwargs(const CallArgs &args, Pos pos) {
    std::vector<KwArg> out;
    for (auto &[key, value] : args.kw)
      out.push_back({text_of(key), expr(value, pos), loc(key)});
    return out;
  }

  static bool has_slice(P::IndexExprContext *ix) {
    for (P::SubscriptContext *s : ix->subscripts()->subscript())
      if (dynamic_cast<P::SliceSubContext *>(s))
        return true;
    return false;
  }

  /// `raw[k]`, `war[k, :]`, `cluster_sync`: a barrier named in a sync position.
  Expr barrier_ref(P::ExprContext *e) {
    e = strip_parens(e);
    if (auto *ix = dynamic_cast<P::IndexExprContext *>(e))
      return has_slice(ix) ? window_expr(ix, Pos::Value) : read(ix, Pos::Value);
    std::string n = bare_name(e);
    if (n.empty())
      error_at(e, DiagKind::BadBarrierRef, source_text(pf_, e));
    return name_expr(n, e, Pos::Value);
  }

  Expr name_expr(const std::string &n, P::ExprContext *at, Pos pos) {
    const NameInScope *b = lookup(n);
    SrcLoc l = loc(at);
    if (!b) {
      if (pos == Pos::Value)
        error_at(at, DiagKind::UndeclaredName, n);
      return Var::make(Sym::global(n), ValueType::Meta, l);
    }
    switch (b->kind) {
    case NameInScope::Kind::Control:
    case NameInScope::Kind::ScalarArg: return Var::make(b->sym, b->type, l);
    case NameInScope::Kind::Buffer:
    case NameInScope::Kind::Barrier: return Read::make(b->sym, {}, b->type, l);
    }
    EXGC_UNREACHABLE("binding kind");
  }

  /// The buffer (or, in annotations, the descriptor) an index expression
  /// subscripts.
  std::pair<Sym, ValueType> indexed(P::IndexExprContext *ix, Pos pos) {
    P::ExprContext *base = strip_parens(ix->expr());
    std::string n = bare_name(base);
    if (n.empty())
      error_at(ix->expr(), DiagKind::NotInProc, "indexing anything but a name");
    const NameInScope *b = lookup(n);
    if (b)
      return {b->sym, b->type};
    if (pos == Pos::Value)
      error_at(base, DiagKind::UndeclaredName, n);
    return {Sym::global(n), ValueType::Meta}; // `CudaMbarrier[cuda_cta_in_cluster]`
  }

  Expr read(P::IndexExprContext *ix, Pos pos) {
    auto [buf, type] = indexed(ix, pos);
    std::vector<Expr> idx;
    for (P::SubscriptContext *s : ix->subscripts()->subscript())
      idx.push_back(expr(dynamic_cast<P::PointSubContext *>(s)->expr(), pos));
    return Read::make(buf, std::move(idx), type, loc(ix));
  }

  Expr window_expr(P::IndexExprContext *ix, Pos pos) {
    auto [buf, type] = indexed(ix, pos);
    std::vector<WindowIdx> idx;
    for (P::SubscriptContext *s : ix->subscripts()->subscript()) {
      if (auto *pt = dynamic_cast<P::PointSubContext *>(s)) {
        idx.push_back(WindowIdx::point(expr(pt->expr(), pos)));
        continue;
      }
      auto *sl = dynamic_cast<P::SliceSubContext *>(s);
      idx.push_back(WindowIdx::slice(sl->lo ? expr(sl->lo, pos) : Expr(),
                                     sl->hi ? expr(sl->hi, pos) : Expr()));
    }
    return WindowExpr::make(buf, std::move(idx), type, loc(ix));
  }

  Expr call(P::CallExprContext *c, Pos pos) {
    std::string f = bare_name(c->expr());
    if (f.empty() || strip_parens(c->expr()) != c->expr())
      error_at(c->expr(), DiagKind::NotInProc, "a call of '" + source_text(pf_, c->expr()) + "'");
    CallArgs args = split_args(c->args(), pf_, diag_);
    std::vector<Expr> pos_args;
    for (P::ExprContext *a : args.pos)
      pos_args.push_back(expr(a, pos));
    std::vector<KwArg> kw = kwargs(args, pos);
    return Call::make(f, pos_args, std::move(kw), loc(c)); // its type is derived
  }

  Expr binop(BinOpKind op, P::ExprContext *whole, P::ExprContext *a, P::ExprContext *b,
             Pos pos) {
    Expr x = expr(a, pos);
    Expr y = expr(b, pos);
    return BinOp::make(op, x, y, loc(whole));
  }

  static BinOpKind op_kind(size_t token) {
    switch (token) {
    case P::STAR: return BinOpKind::Mul;
    case P::SLASH: return BinOpKind::Div;
    case P::PERCENT: return BinOpKind::Mod;
    case P::PLUS: return BinOpKind::Add;
    case P::MINUS: return BinOpKind::Sub;
    case P::LT: return BinOpKind::Lt;
    case P::LE: return BinOpKind::Le;
    case P::GT: return BinOpKind::Gt;
    case P::GE: return BinOpKind::Ge;
    case P::EQ: return BinOpKind::Eq;
    default: return BinOpKind::Ne;
    }
  }

  Expr expr(P::ExprContext *e, Pos pos) {
    if (auto *a = dynamic_cast<P::AtomExprContext *>(e))
      return atom(a->atom(), e, pos);
    if (auto *c = dynamic_cast<P::CallExprContext *>(e))
      return call(c, pos);
    if (auto *ix = dynamic_cast<P::IndexExprContext *>(e))
      return has_slice(ix) ? window_expr(ix, pos) : read(ix, pos);
    if (auto *n = dynamic_cast<P::NegExprContext *>(e))
      return negate(n, pos);
    if (auto *m = dynamic_cast<P::MulExprContext *>(e))
      return binop(op_kind(m->op->getType()), e, m->expr(0), m->expr(1), pos);
    if (auto *ad = dynamic_cast<P::AddExprContext *>(e))
      return binop(op_kind(ad->op->getType()), e, ad->expr(0), ad->expr(1), pos);
    if (auto *c = dynamic_cast<P::CmpExprContext *>(e)) {
      reject_chained_comparison(c, pf_, diag_);
      return binop(op_kind(c->op->getType()), e, c->expr(0), c->expr(1), pos);
    }
    if (auto *a = dynamic_cast<P::AndExprContext *>(e))
      return binop(BinOpKind::And, e, a->expr(0), a->expr(1), pos);
    if (auto *o = dynamic_cast<P::OrExprContext *>(e))
      return binop(BinOpKind::Or, e, o->expr(0), o->expr(1), pos);
    if (auto *n = dynamic_cast<P::NotExprContext *>(e))
      return UnOp::make(UnOpKind::Not, expr(n->expr(), pos), loc(e));
    if (auto *at = dynamic_cast<P::AttrExprContext *>(e))
      error_at(at, DiagKind::NotInProc, "attribute access '" + source_text(pf_, at) + "'");
    if (auto *an = dynamic_cast<P::AnnotExprContext *>(e))
      error_at(an, DiagKind::MisplacedAnnotation, "");
    EXGC_UNREACHABLE("expression form");
  }

  /// `-e`; a literal operand folds into the literal.
  Expr negate(P::NegExprContext *n, Pos pos) {
    Expr x = expr(n->expr(), pos);
    if (const auto *i = x.as<IntImm>())
      return IntImm::make(-i->value, loc(n));
    if (const auto *f = x.as<FloatImm>())
      return FloatImm::make(-f->value, loc(n));
    return UnOp::make(UnOpKind::Neg, x, loc(n));
  }

  Expr atom(P::AtomContext *a, P::ExprContext *whole, Pos pos) {
    SrcLoc l = loc(a);
    if (auto *n = dynamic_cast<P::NameAtomContext *>(a))
      return name_expr(text_of(n->NAME()), whole, pos);
    if (auto *i = dynamic_cast<P::IntAtomContext *>(a)) {
      int64_t v;
      if (!parse_int(i->getText(), v))
        fail(diag_, l, DiagKind::IntegerTooLarge, i->getText());
      return IntImm::make(v, l);
    }
    if (auto *f = dynamic_cast<P::FloatAtomContext *>(a)) {
      // A literal beyond f64 is a typo, not a way to spell `inf`.
      double v = std::strtod(f->getText().c_str(), nullptr);
      if (std::isinf(v))
        fail(diag_, l, DiagKind::FloatTooLarge, f->getText());
      return FloatImm::make(v, l);
    }
    if (auto *s = dynamic_cast<P::StringAtomContext *>(a))
      return StrImm::make(unquote(s->getText()), l);
    if (dynamic_cast<P::InfAtomContext *>(a))
      return FloatImm::make(std::numeric_limits<double>::infinity(), l);
    if (dynamic_cast<P::TrueAtomContext *>(a))
      return BoolImm::make(true, l);
    if (dynamic_cast<P::FalseAtomContext *>(a))
      return BoolImm::make(false, l);
    if (auto *p = dynamic_cast<P::ParenAtomContext *>(a))
      return expr(p->expr(), pos);
    if (auto *li = dynamic_cast<P::ListAtomContext *>(a)) {
      std::vector<Expr> elems;
      for (P::ExprContext *e : li->expr())
        elems.push_back(expr(e, pos));
      return ListExpr::make(std::move(elems), l);
    }
    EXGC_UNREACHABLE("atom form");
  }

  const parse::ParsedFile &pf_;
  DiagEngine &diag_;
  ProcNode *proc_ = nullptr;
  std::vector<std::map<std::string, NameInScope>> scopes_;
  Phase phase_ = Phase::Attrs;
  bool top_level_ = true;
};

} // namespace

Proc build_proc(P::ProcDeclContext *d, const parse::ParsedFile &pf, DiagEngine &diag) {
  return ProcBuilder(pf, diag).build(d);
}

} // namespace exgc::build_detail
