// build_script.cpp - parse tree -> script AST for def and schedule bodies --//
//
// Owns: the schedule-script forms (docs/language.md, "Scripts"). Scripts share the
// statement and expression syntax with procs; this file keeps the forms a
// script has (assignments to names, calls, attribute access, one subscript
// or slice, lists, strings, if/elif/else, for-in, return, pass) and reports
// the proc-only ones (asserts, declarations, `with`, '@', trailing barriers).
// `x += e` is sugar for `x = x + e`. Names are not resolved here: scripts are
// interpreted by compiler/schedule/, which knows procs, primitives and
// descriptors.
#include "compiler/frontend/build_internal.h"

namespace exgc::build_detail {

namespace {

class ScriptBuilder {
public:
  ScriptBuilder(const parse::ParsedFile &pf, DiagEngine &diag) : pf_(pf), diag_(diag) {}

  script::Block suite(P::SuiteContext *s) {
    script::Block out;
    if (auto *simple = s->simpleStmt())
      out.push_back(simple_stmt(simple));
    for (P::StmtContext *st : s->stmt())
      out.push_back(stmt(st));
    return out;
  }

  /// A top-level value's expression.
  script::Expr value(P::ExprContext *e) { return expr(e); }

private:
  SrcLoc loc(antlr4::ParserRuleContext *c) const { return pf_.loc(c); }
  [[noreturn]] void not_here(antlr4::ParserRuleContext *c, const std::string &what) {
    fail(diag_, loc(c), DiagKind::NotInScript, what);
  }

  script::Stmt stmt(P::StmtContext *s) {
    if (auto *simple = s->simpleStmt())
      return simple_stmt(simple);
    if (auto *i = s->ifStmt())
      return if_stmt(i);
    if (auto *f = s->forStmt()) {
      script::Expr iter = expr(f->expr());
      return script::for_stmt(text_of(f->NAME()), iter, suite(f->suite()), loc(f));
    }
    not_here(s->withStmt(), "'with'");
  }

  script::Stmt simple_stmt(P::SimpleStmtContext *s) {
    if (auto *p = dynamic_cast<P::PassStmtContext *>(s))
      return script::pass_stmt(loc(p));
    if (auto *r = dynamic_cast<P::ReturnStmtContext *>(s))
      return script::return_stmt(r->expr() ? expr(r->expr()) : nullptr, loc(r));
    if (auto *a = dynamic_cast<P::AssertStmtContext *>(s))
      not_here(a, "'assert'");
    if (auto *d = dynamic_cast<P::DeclStmtContext *>(s))
      not_here(d, "a declaration ('" + text_of(d->NAME()) + ": ...')");
    if (auto *a = dynamic_cast<P::AssignStmtContext *>(s)) {
      std::string target = bare_name(a->expr(0));
      if (target.empty() || strip_parens(a->expr(0)) != a->expr(0))
        fail(diag_, loc(a->expr(0)), DiagKind::InvalidAssignTarget,
             "'" + source_text(pf_, a->expr(0)) + "' in a script; assign to a name");
      script::Expr value = expr(a->expr(1));
      if (a->op->getType() == P::PLUS_ASSIGN)
        value = script::binop("+", script::name(target, loc(a->expr(0))), value, loc(a));
      return script::assign(target, value, loc(a));
    }
    auto *e = dynamic_cast<P::ExprStmtContext *>(s);
    std::vector<P::ExprContext *> parts = e->expr();
    if (parts.size() > 1)
      not_here(parts[1], "a trailing barrier ('>>')");
    return script::expr_stmt(expr(parts[0]), loc(e));
  }

  script::Stmt if_stmt(P::IfStmtContext *i) {
    script::Expr cond = expr(i->expr());
    script::Block then_body = suite(i->suite());
    std::vector<P::ElifClauseContext *> elifs = i->elifClause();
    std::vector<std::pair<script::Expr, script::Block>> arms;
    for (P::ElifClauseContext *el : elifs) {
      script::Expr c = expr(el->expr());
      arms.push_back({c, suite(el->suite())});
    }
    script::Block orelse;
    if (auto *e = i->elseClause())
      orelse = suite(e->suite());
    for (size_t k = elifs.size(); k-- > 0;)
      orelse = {script::if_stmt(arms[k].first, std::move(arms[k].second), std::move(orelse),
                                loc(elifs[k]))};
    return script::if_stmt(cond, std::move(then_body), std::move(orelse), loc(i));
  }

  static const char *op_text(size_t token) {
    switch (token) {
    case P::STAR: return "*";
    case P::SLASH: return "/";
    case P::PERCENT: return "%";
    case P::PLUS: return "+";
    case P::MINUS: return "-";
    case P::LT: return "<";
    case P::LE: return "<=";
    case P::GT: return ">";
    case P::GE: return ">=";
    case P::EQ: return "==";
    default: return "!=";
    }
  }

  script::Expr binop(const std::string &op, P::ExprContext *whole, P::ExprContext *a,
                     P::ExprContext *b) {
    script::Expr x = expr(a);
    script::Expr y = expr(b);
    return script::binop(op, x, y, loc(whole));
  }

  script::Expr expr(P::ExprContext *e) {
    SrcLoc l = loc(e);
    if (auto *a = dynamic_cast<P::AtomExprContext *>(e))
      return atom(a->atom());
    if (auto *at = dynamic_cast<P::AttrExprContext *>(e))
      return script::attr(expr(at->expr()), text_of(at->NAME()), l);
    if (auto *c = dynamic_cast<P::CallExprContext *>(e)) {
      script::Expr callee = expr(c->expr());
      CallArgs args = split_args(c->args(), pf_, diag_);
      std::vector<script::Expr> pos;
      for (P::ExprContext *p : args.pos)
        pos.push_back(expr(p));
      std::vector<script::KwArg> kw;
      for (auto &[key, value] : args.kw)
        kw.push_back({text_of(key), expr(value), pf_.loc(key->getSymbol())});
      return script::call(callee, std::move(pos), std::move(kw), l);
    }
    if (auto *ix = dynamic_cast<P::IndexExprContext *>(e))
      return index(ix);
    if (auto *n = dynamic_cast<P::NegExprContext *>(e)) {
      script::Expr x = expr(n->expr());
      if (x->kind == script::ExprKind::Int)
        return script::int_lit(-x->int_value, l);
      return script::unop("-", x, l);
    }
    if (auto *m = dynamic_cast<P::MulExprContext *>(e))
      return binop(op_text(m->op->getType()), e, m->expr(0), m->expr(1));
    if (auto *ad = dynamic_cast<P::AddExprContext *>(e))
      return binop(op_text(ad->op->getType()), e, ad->expr(0), ad->expr(1));
    if (auto *c = dynamic_cast<P::CmpExprContext *>(e)) {
      reject_chained_comparison(c, pf_, diag_);
      return binop(op_text(c->op->getType()), e, c->expr(0), c->expr(1));
    }
    if (auto *a = dynamic_cast<P::AndExprContext *>(e))
      return binop("and", e, a->expr(0), a->expr(1));
    if (auto *o = dynamic_cast<P::OrExprContext *>(e))
      return binop("or", e, o->expr(0), o->expr(1));
    if (auto *n = dynamic_cast<P::NotExprContext *>(e))
      return script::unop("not", expr(n->expr()), l);
    if (auto *an = dynamic_cast<P::AnnotExprContext *>(e))
      not_here(an, "'@'");
    EXGC_UNREACHABLE("expression form");
  }

  /// `x[i]` or `x[a:b]`: scripts index lists and cursor blocks with one
  /// subscript.
  script::Expr index(P::IndexExprContext *ix) {
    script::Expr obj = expr(ix->expr());
    std::vector<P::SubscriptContext *> subs = ix->subscripts()->subscript();
    if (subs.size() != 1)
      not_here(subs[1], "a second subscript");
    script::Expr sub;
    if (auto *pt = dynamic_cast<P::PointSubContext *>(subs[0])) {
      sub = expr(pt->expr());
    } else {
      auto *sl = dynamic_cast<P::SliceSubContext *>(subs[0]);
      sub = script::slice(sl->lo ? expr(sl->lo) : nullptr, sl->hi ? expr(sl->hi) : nullptr,
                          loc(sl));
    }
    return script::index(obj, sub, loc(ix));
  }

  script::Expr atom(P::AtomContext *a) {
    SrcLoc l = loc(a);
    if (auto *n = dynamic_cast<P::NameAtomContext *>(a))
      return script::name(text_of(n->NAME()), l);
    if (auto *i = dynamic_cast<P::IntAtomContext *>(a)) {
      int64_t v;
      if (!parse_int(i->getText(), v))
        fail(diag_, l, DiagKind::IntegerTooLarge, i->getText());
      return script::int_lit(v, l);
    }
    if (dynamic_cast<P::FloatAtomContext *>(a) || dynamic_cast<P::InfAtomContext *>(a))
      not_here(a, "a real literal");
    if (auto *s = dynamic_cast<P::StringAtomContext *>(a))
      return script::str_lit(unquote(s->getText()), l);
    if (dynamic_cast<P::TrueAtomContext *>(a))
      return script::bool_lit(true, l);
    if (dynamic_cast<P::FalseAtomContext *>(a))
      return script::bool_lit(false, l);
    if (auto *p = dynamic_cast<P::ParenAtomContext *>(a))
      return expr(p->expr());
    auto *li = dynamic_cast<P::ListAtomContext *>(a);
    std::vector<script::Expr> items;
    for (P::ExprContext *e : li->expr())
      items.push_back(expr(e));
    return script::list(std::move(items), l);
  }

  const parse::ParsedFile &pf_;
  DiagEngine &diag_;
};

} // namespace

script::Block build_script_suite(P::SuiteContext *s, const parse::ParsedFile &pf,
                                 DiagEngine &diag) {
  return ScriptBuilder(pf, diag).suite(s);
}

script::Expr build_script_expr(P::ExprContext *e, const parse::ParsedFile &pf, DiagEngine &diag) {
  return ScriptBuilder(pf, diag).value(e);
}

} // namespace exgc::build_detail
