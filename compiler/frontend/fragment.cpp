// fragment.cpp - parse a proc-syntax fragment into an untyped tree --------//
#include "compiler/frontend/fragment.h"

#include <cmath>
#include <limits>
#include <cerrno>
#include <cstdlib>

#include "compiler/frontend/build_internal.h"
#include "compiler/parse/parse.h"

namespace exgc {
namespace {

using P = grammar::ExgParser;
using build_detail::strip_parens;
using build_detail::text_of;

/// Thrown with the reason a fragment cannot be a pattern.
struct FragError {
  std::string message;
};

/// Splits at `;` outside brackets and strings.
std::vector<std::string> split_statements(const std::string &text) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      cur += c;
      if (c == '\\' && i + 1 < text.size())
        cur += text[++i];
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    if (c == '(' || c == '[')
      ++depth;
    if ((c == ')' || c == ']') && depth > 0)
      --depth;
    if (c == ';' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  parts.push_back(cur);
  return parts;
}

bool blank(const std::string &s) { return s.find_first_not_of(" \t") == std::string::npos; }

class FragBuilder {
public:
  FragExprP expr(P::ExprContext *e) {
    e = strip_parens(e);
    auto out = std::make_shared<FragExpr>();
    if (auto *a = dynamic_cast<P::AtomExprContext *>(e))
      return atom(a->atom());
    if (auto *c = dynamic_cast<P::CallExprContext *>(e)) {
      out->kind = FragExpr::Kind::Call;
      out->text = dotted(c->expr());
      if (out->text.empty())
        throw FragError{"a call in a pattern names its callee"};
      if (c->args())
        for (P::ArgContext *arg : c->args()->arg()) {
          if (auto *kw = dynamic_cast<P::KwArgContext *>(arg))
            out->kwargs.push_back({text_of(kw->NAME()), expr(kw->expr())});
          else
            out->items.push_back(expr(dynamic_cast<P::PosArgContext *>(arg)->expr()));
        }
      return out;
    }
    if (auto *ix = dynamic_cast<P::IndexExprContext *>(e)) {
      out->kind = FragExpr::Kind::Index;
      out->items.push_back(expr(ix->expr()));
      for (P::SubscriptContext *s : ix->subscripts()->subscript()) {
        if (auto *pt = dynamic_cast<P::PointSubContext *>(s)) {
          out->items.push_back(expr(pt->expr()));
          continue;
        }
        auto *sl = dynamic_cast<P::SliceSubContext *>(s);
        auto slice = std::make_shared<FragExpr>();
        slice->kind = FragExpr::Kind::Slice;
        slice->items.push_back(sl->lo ? expr(sl->lo) : nullptr);
        slice->items.push_back(sl->hi ? expr(sl->hi) : nullptr);
        out->items.push_back(slice);
      }
      return out;
    }
    if (auto *n = dynamic_cast<P::NegExprContext *>(e)) {
      out->kind = FragExpr::Kind::Neg;
      out->items.push_back(expr(n->expr()));
      return out;
    }
    if (auto *n = dynamic_cast<P::NotExprContext *>(e)) {
      out->kind = FragExpr::Kind::Not;
      out->items.push_back(expr(n->expr()));
      return out;
    }
    if (auto *an = dynamic_cast<P::AnnotExprContext *>(e)) {
      out->kind = FragExpr::Kind::Annot;
      out->items = {expr(an->expr(0)), expr(an->expr(1))};
      return out;
    }
    if (auto *m = dynamic_cast<P::MulExprContext *>(e))
      return binop(m->op->getType() == P::STAR    ? BinOpKind::Mul
                   : m->op->getType() == P::SLASH ? BinOpKind::Div
                                                  : BinOpKind::Mod,
                   m->expr(0), m->expr(1));
    if (auto *a = dynamic_cast<P::AddExprContext *>(e))
      return binop(a->op->getType() == P::PLUS ? BinOpKind::Add : BinOpKind::Sub, a->expr(0),
                   a->expr(1));
    if (auto *c = dynamic_cast<P::CmpExprContext *>(e)) {
      BinOpKind k;
      switch (c->op->getType()) {
      case P::LT: k = BinOpKind::Lt; break;
      case P::LE: k = BinOpKind::Le; break;
      case P::GT: k = BinOpKind::Gt; break;
      case P::GE: k = BinOpKind::Ge; break;
      case P::EQ: k = BinOpKind::Eq; break;
      default: k = BinOpKind::Ne; break;
      }
      return binop(k, c->expr(0), c->expr(1));
    }
    if (auto *a = dynamic_cast<P::AndExprContext *>(e))
      return binop(BinOpKind::And, a->expr(0), a->expr(1));
    if (auto *o = dynamic_cast<P::OrExprContext *>(e))
      return binop(BinOpKind::Or, o->expr(0), o->expr(1));
    if (auto *at = dynamic_cast<P::AttrExprContext *>(e)) {
      std::string d = dotted(at);
      if (d.empty())
        throw FragError{"'.' in a pattern only joins a qualified name"};
      out->kind = FragExpr::Kind::Name;
      out->text = d;
      return out;
    }
    throw FragError{"this expression form cannot be matched"};
  }

  std::vector<FragStmtP> suite(P::SuiteContext *s) {
    std::vector<FragStmtP> out;
    if (auto *simple = s->simpleStmt())
      out.push_back(simple_stmt(simple));
    for (P::StmtContext *st : s->stmt())
      out.push_back(stmt(st));
    return out;
  }

  FragStmtP stmt(P::StmtContext *s) {
    if (auto *simple = s->simpleStmt())
      return simple_stmt(simple);
    auto out = std::make_shared<FragStmt>();
    if (auto *f = s->forStmt()) {
      out->kind = FragStmt::Kind::For;
      out->name = text_of(f->NAME());
      out->a = expr(f->expr());
      out->body = suite(f->suite());
      return out;
    }
    if (auto *w = s->withStmt()) {
      out->kind = FragStmt::Kind::With;
      out->a = expr(w->expr());
      out->body = suite(w->suite());
      return out;
    }
    return if_chain(s->ifStmt()->expr(), s->ifStmt()->suite(), s->ifStmt()->elifClause(), 0,
                    s->ifStmt()->elseClause());
  }

private:
  FragExprP binop(BinOpKind k, P::ExprContext *a, P::ExprContext *b) {
    auto out = std::make_shared<FragExpr>();
    out->kind = FragExpr::Kind::BinOp;
    out->op = k;
    out->items = {expr(a), expr(b)};
    return out;
  }

  static std::string dotted(P::ExprContext *e) { return build_detail::dotted_name(e); }

  FragExprP atom(P::AtomContext *a) {
    auto out = std::make_shared<FragExpr>();
    if (auto *n = dynamic_cast<P::NameAtomContext *>(a)) {
      out->text = text_of(n->NAME());
      out->kind = out->text == "_" ? FragExpr::Kind::Hole : FragExpr::Kind::Name;
      return out;
    }
    if (auto *i = dynamic_cast<P::IntAtomContext *>(a)) {
      out->kind = FragExpr::Kind::Int;
      if (!build_detail::parse_int(i->getText(), out->int_value))
        throw FragError{"integer literal '" + i->getText() + "' is too large"};
      return out;
    }
    if (auto *f = dynamic_cast<P::FloatAtomContext *>(a)) {
      out->kind = FragExpr::Kind::Float;
      out->float_value = std::strtod(f->getText().c_str(), nullptr);
      if (std::isinf(out->float_value))
        throw FragError{"floating-point literal '" + f->getText() + "' is beyond the range of f64"};
      return out;
    }
    if (dynamic_cast<P::InfAtomContext *>(a)) {
      out->kind = FragExpr::Kind::Float;
      out->float_value = std::numeric_limits<double>::infinity();
      return out;
    }
    if (auto *s = dynamic_cast<P::StringAtomContext *>(a)) {
      out->kind = FragExpr::Kind::Str;
      out->text = build_detail::unquote(s->getText());
      return out;
    }
    if (dynamic_cast<P::TrueAtomContext *>(a) || dynamic_cast<P::FalseAtomContext *>(a)) {
      out->kind = FragExpr::Kind::Bool;
      out->int_value = dynamic_cast<P::TrueAtomContext *>(a) ? 1 : 0;
      return out;
    }
    if (auto *p = dynamic_cast<P::ParenAtomContext *>(a))
      return expr(p->expr());
    auto *l = dynamic_cast<P::ListAtomContext *>(a);
    out->kind = FragExpr::Kind::List;
    for (P::ExprContext *e : l->expr())
      out->items.push_back(expr(e));
    return out;
  }

  FragStmtP if_chain(P::ExprContext *cond, P::SuiteContext *then, std::vector<P::ElifClauseContext *> elifs,
                     size_t next, P::ElseClauseContext *els) {
    auto out = std::make_shared<FragStmt>();
    out->kind = FragStmt::Kind::If;
    out->a = expr(cond);
    out->body = suite(then);
    if (next < elifs.size()) {
      out->has_else = true;
      out->orelse.push_back(if_chain(elifs[next]->expr(), elifs[next]->suite(), elifs, next + 1, els));
    } else if (els) {
      out->has_else = true;
      out->orelse = suite(els->suite());
    }
    return out;
  }

  FragStmtP simple_stmt(P::SimpleStmtContext *s) {
    auto out = std::make_shared<FragStmt>();
    if (dynamic_cast<P::PassStmtContext *>(s)) {
      out->kind = FragStmt::Kind::Pass;
      return out;
    }
    if (dynamic_cast<P::ReturnStmtContext *>(s))
      throw FragError{"'return' is not a proc statement"};
    if (dynamic_cast<P::AssertStmtContext *>(s))
      throw FragError{"an 'assert' is a precondition, not a statement"};
    if (auto *d = dynamic_cast<P::DeclStmtContext *>(s)) {
      if (d->expr().size() != 1)
        throw FragError{"an allocation has one type"};
      out->kind = FragStmt::Kind::Decl;
      out->name = text_of(d->NAME());
      out->a = expr(d->expr(0));
      return out;
    }
    if (auto *a = dynamic_cast<P::AssignStmtContext *>(s)) {
      out->kind = a->op->getType() == P::PLUS_ASSIGN ? FragStmt::Kind::Reduce : FragStmt::Kind::Assign;
      out->a = expr(a->expr(0));
      out->b = expr(a->expr(1));
      if (out->a->kind != FragExpr::Kind::Name && out->a->kind != FragExpr::Kind::Index &&
          !out->a->is_hole())
        throw FragError{"the target of an assignment is a name or an element"};
      return out;
    }
    auto *e = dynamic_cast<P::ExprStmtContext *>(s);
    std::vector<P::ExprContext *> parts = e->expr();
    FragExprP head = expr(parts[0]);
    if (head->is_hole() && parts.size() == 1)
      return out; // a statement hole
    if (head->kind != FragExpr::Kind::Call)
      throw FragError{"an expression alone is not a statement; use '_' for any statement"};
    out->kind = FragStmt::Kind::Call;
    out->a = head;
    for (size_t i = 1; i < parts.size(); ++i)
      out->barriers.push_back(expr(parts[i]));
    return out;
  }
};

/// Parses `body` (already split into lines) as the body of a synthetic proc.
P::SuiteContext *parse_wrapped(const std::vector<std::string> &lines,
                               std::unique_ptr<parse::ParsedFile> &pf, SourceManager &sm,
                               FragmentError &error) {
  // Each statement's first line starts the body; its further lines (a
  // multi-line pattern, `"for i in _:\n    x[i] = _"`) keep their indentation
  // relative to it.
  std::string text = "proc __fragment__():\n";
  for (const std::string &l : lines) {
    std::string stmt = l.substr(l.find_first_not_of(" \t"));
    for (size_t start = 0; start <= stmt.size();) {
      size_t nl = stmt.find('\n', start);
      size_t end = nl == std::string::npos ? stmt.size() : nl;
      text += "    " + stmt.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  uint32_t file = sm.add("<pattern>", text);
  DiagEngine diag(sm);
  pf = parse::parse_file(file, sm, diag);
  if (!pf || diag.has_errors() || !pf->tree) {
    error.syntax = true;
    error.message = diag.diagnostics().empty() ? "it does not parse" : diag.diagnostics()[0].message;
    return nullptr;
  }
  std::vector<P::DeclContext *> decls = pf->tree->decl();
  if (decls.size() != 1 || !decls[0]->procDecl()) {
    error.message = "it is not one statement sequence";
    return nullptr;
  }
  return decls[0]->procDecl()->suite();
}

} // namespace

bool parse_stmt_fragment(const std::string &text, std::vector<FragStmtP> &out,
                         FragmentError &error) {
  std::vector<std::string> lines = split_statements(text);
  for (const std::string &l : lines)
    if (blank(l)) {
      error.message = "it has an empty statement";
      return false;
    }
  SourceManager sm;
  std::unique_ptr<parse::ParsedFile> pf;
  P::SuiteContext *s = parse_wrapped(lines, pf, sm, error);
  if (!s)
    return false;
  try {
    out = FragBuilder().suite(s);
  } catch (const FragError &e) {
    error.message = e.message;
    return false;
  }
  return true;
}

bool parse_expr_fragment(const std::string &text, FragExprP &out, FragmentError &error) {
  if (blank(text) || text.find(';') != std::string::npos || text.find('\n') != std::string::npos) {
    error.message = "it is not one expression";
    return false;
  }
  SourceManager sm;
  std::unique_ptr<parse::ParsedFile> pf;
  P::SuiteContext *s = parse_wrapped({text}, pf, sm, error);
  if (!s)
    return false;
  auto *e = dynamic_cast<P::ExprStmtContext *>(s->simpleStmt() ? s->simpleStmt()
                                               : s->stmt().size() == 1 ? s->stmt(0)->simpleStmt()
                                                                       : nullptr);
  if (!e || e->expr().size() != 1) {
    error.message = "it is not one expression";
    return false;
  }
  try {
    out = FragBuilder().expr(e->expr(0));
  } catch (const FragError &ex) {
    error.message = ex.message;
    return false;
  }
  return true;
}

} // namespace exgc
