// printer.cpp - canonical .exg text of the IR and of schedule scripts ------//
// Parenthesizes by precedence only where needed, so printed text reads like
// hand-written code and parses back to the same tree.
#include "compiler/ir/printer.h"

#include <charconv>
#include <cstdint>
#include <sstream>
#include <type_traits>

namespace exgc {
namespace {

constexpr int kUnaryPrec = 7;   // -x binds tighter than * / %
constexpr int kNotPrec = 3;     // not x: looser than comparisons, tighter than and
constexpr int kPostfixPrec = 8; // calls, indexing, attributes

std::string indent_str(int indent) { return std::string(static_cast<size_t>(indent) * 4, ' '); }

/// The source's full-line comments, handed out in line order while
/// print_module(m, source) runs. The statement printers are free functions
/// that many callers use without comments, so the module printer lends them
/// its comments through this pointer rather than through every signature.
struct PendingComments {
  std::vector<std::pair<uint32_t, std::string>> lines; // line, text from '#'
  size_t next = 0;
  /// The comments above `line`, not yet printed, at `indent`.
  std::string take_before(uint32_t line, int indent) {
    std::string out;
    for (; next < lines.size() && lines[next].first < line; ++next)
      out += indent_str(indent) + lines[next].second + "\n";
    return out;
  }
};
thread_local PendingComments *pending_comments = nullptr;

std::string comments_before(SrcLoc loc, int indent) {
  return pending_comments && loc.line ? pending_comments->take_before(loc.line, indent) : "";
}

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    default: out += c;
    }
  }
  return out + "\"";
}

std::string float_text(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  // Keep it a float literal when read back: "1" -> "1.0".
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s;
}

int expr_prec(const Expr &e) {
  if (const auto *b = e.as<BinOp>())
    return binop_precedence(b->op);
  if (const auto *u = e.as<UnOp>())
    return u->op == UnOpKind::Not ? kNotPrec : kUnaryPrec;
  if (const auto *i = e.as<IntImm>())
    return i->value < 0 ? kUnaryPrec : kPostfixPrec + 1;
  if (const auto *f = e.as<FloatImm>())
    return f->value < 0 ? kUnaryPrec : kPostfixPrec + 1;
  return kPostfixPrec + 1;
}

std::string expr_at(const Expr &e, int min_prec) {
  std::string s = print_expr(e);
  return expr_prec(e) < min_prec ? "(" + s + ")" : s;
}

std::string join_exprs(const std::vector<Expr> &es) {
  std::string s;
  for (size_t i = 0; i < es.size(); ++i)
    s += (i ? ", " : "") + print_expr(es[i]);
  return s;
}

std::string args_text(const std::vector<Expr> &args, const std::vector<KwArg> &kwargs) {
  std::string s = join_exprs(args);
  for (const KwArg &k : kwargs)
    s += (s.empty() ? "" : ", ") + k.key + "=" + print_expr(k.value);
  return s;
}

std::string window_idx_text(const WindowIdx &w) {
  if (!w.is_slice)
    return print_expr(w.lo);
  return (w.lo ? print_expr(w.lo) : "") + ":" + (w.hi ? print_expr(w.hi) : "");
}

std::string index_text(const std::string &buf, const std::vector<Expr> &idx) {
  return idx.empty() ? buf : buf + "[" + join_exprs(idx) + "]";
}

std::string barriers_text(const std::vector<Expr> &bars) {
  std::string s;
  for (const Expr &b : bars)
    s += " >> " + print_expr(b);
  return s;
}

std::string mem_suffix(const Expr &mem) { return mem ? " @ " + print_expr(mem) : ""; }

std::string body_text(const Block &b, int indent) {
  if (b.empty())
    return indent_str(indent) + "pass\n";
  return print_block(b, indent);
}

} // namespace

std::string print_expr(const Expr &e) {
  if (!e)
    return "<null>";
  switch (e->kind) {
  case ExprKind::IntImm: return std::to_string(e.as<IntImm>()->value);
  case ExprKind::FloatImm: return float_text(e.as<FloatImm>()->value);
  case ExprKind::BoolImm: return e.as<BoolImm>()->value ? "True" : "False";
  case ExprKind::StrImm: return quote(e.as<StrImm>()->value);
  case ExprKind::Var: return e.as<Var>()->name.name;
  case ExprKind::Read: {
    const auto *r = e.as<Read>();
    return index_text(r->buf.name, r->idx);
  }
  case ExprKind::WindowExpr: {
    const auto *w = e.as<WindowExpr>();
    std::string s = w->buf.name + "[";
    for (size_t i = 0; i < w->idx.size(); ++i)
      s += (i ? ", " : "") + window_idx_text(w->idx[i]);
    return s + "]";
  }
  case ExprKind::BinOp: {
    const auto *b = e.as<BinOp>();
    int p = binop_precedence(b->op);
    // Left-associative: the right operand needs parentheses at equal strength;
    // comparisons do not chain, so both sides do.
    int left_min = is_comparison(b->op) ? p + 1 : p;
    return expr_at(b->a, left_min) + " " + binop_spelling(b->op) + " " + expr_at(b->b, p + 1);
  }
  case ExprKind::UnOp: {
    const auto *u = e.as<UnOp>();
    if (u->op == UnOpKind::Not)
      return "not " + expr_at(u->a, kNotPrec);
    return "-" + expr_at(u->a, kUnaryPrec + 1);
  }
  case ExprKind::Call: {
    const auto *c = e.as<Call>();
    return c->func + "(" + args_text(c->args, c->kwargs) + ")";
  }
  case ExprKind::ListExpr: return "[" + join_exprs(e.as<ListExpr>()->elems) + "]";
  }
  EXGC_UNREACHABLE("expr kind");
}

std::string print_type(const Type &t) {
  switch (t.kind) {
  case Type::Kind::Control: return value_type_name(t.scalar);
  case Type::Kind::Data: {
    std::string s = value_type_name(t.scalar);
    if (t.window)
      s = "[" + s + "]" + "[" + join_exprs(t.shape) + "]";
    else if (!t.shape.empty())
      s += "[" + join_exprs(t.shape) + "]";
    return s + mem_suffix(t.mem);
  }
  case Type::Kind::Barrier: {
    std::string s = "barrier";
    if (!t.shape.empty()) {
      s += "[";
      for (size_t i = 0; i < t.shape.size(); ++i) {
        s += i ? ", " : "";
        if (i < t.ring.size() && t.ring[i])
          s += "(" + print_expr(t.shape[i]) + ") @ ring(" + print_expr(t.ring[i]) + ")";
        else
          s += print_expr(t.shape[i]);
      }
      s += "]";
    }
    return s + mem_suffix(t.mem);
  }
  }
  EXGC_UNREACHABLE("type kind");
}

std::string print_stmt(const Stmt &s, int indent) {
  std::string in = indent_str(indent);
  switch (s->kind) {
  case StmtKind::Assign: {
    const auto *a = s.as<Assign>();
    return in + index_text(a->buf.name, a->idx) + " = " + print_expr(a->rhs) + "\n";
  }
  case StmtKind::Reduce: {
    const auto *r = s.as<Reduce>();
    return in + index_text(r->buf.name, r->idx) + " += " + print_expr(r->rhs) + "\n";
  }
  case StmtKind::Alloc: {
    const auto *a = s.as<Alloc>();
    return in + a->name.name + ": " + print_type(a->type) + "\n";
  }
  case StmtKind::WindowStmt: {
    const auto *w = s.as<WindowStmt>();
    return in + w->name.name + " = " + print_expr(w->rhs) + mem_suffix(w->mem) + "\n";
  }
  case StmtKind::For: {
    const auto *f = s.as<For>();
    std::string head = f->mode.name + "(" + print_expr(f->lo) + ", " + print_expr(f->hi);
    for (const KwArg &k : f->mode.kwargs)
      head += ", " + k.key + "=" + print_expr(k.value);
    return in + "for " + f->iter.name + " in " + head + "):\n" + body_text(f->body, indent + 1);
  }
  case StmtKind::If: {
    const auto *i = s.as<If>();
    std::string out = in + "if " + print_expr(i->cond) + ":\n" + body_text(i->then_body, indent + 1);
    const Block *els = &i->else_body;
    // An If alone in an else body prints as elif.
    while (els->size() == 1 && (*els)[0].as<If>()) {
      const auto *e = (*els)[0].as<If>();
      out += in + "elif " + print_expr(e->cond) + ":\n" + body_text(e->then_body, indent + 1);
      els = &e->else_body;
    }
    if (!els->empty())
      out += in + "else:\n" + print_block(*els, indent + 1);
    return out;
  }
  case StmtKind::Pass: return in + "pass\n";
  case StmtKind::CallStmt: {
    const auto *c = s.as<CallStmt>();
    return in + c->callee + "(" + args_text(c->args, c->kwargs) + ")" +
           barriers_text(c->barriers) + "\n";
  }
  case StmtKind::With: {
    const auto *w = s.as<With>();
    return in + "with " + print_expr(w->ctx) + ":\n" + body_text(w->body, indent + 1);
  }
  case StmtKind::Fence: {
    const auto *f = s.as<Fence>();
    return in + "Fence(" + f->first + ", " + f->second + ")\n";
  }
  case StmtKind::Arrive: {
    const auto *a = s.as<Arrive>();
    return in + "Arrive(" + a->timeline + ")" + barriers_text(a->barriers) + "\n";
  }
  case StmtKind::Await: {
    const auto *a = s.as<Await>();
    return in + "Await(" + print_expr(a->bar) + ", " + a->timeline + ", " + print_expr(a->n) +
           ")\n";
  }
  }
  EXGC_UNREACHABLE("stmt kind");
}

std::string print_block(const Block &b, int indent) {
  std::string out;
  for (const Stmt &s : b) {
    out += comments_before(s->loc, indent);
    out += print_stmt(s, indent);
  }
  return out;
}

std::string print_proc_header(const ProcNode &p) {
  std::string out = std::string(p.is_instr ? "instr " : "proc ") + p.name + "(";
  for (size_t i = 0; i < p.args.size(); ++i)
    out += (i ? ", " : "") + p.args[i].name.name + ": " + print_type(p.args[i].type);
  out += "):\n";
  for (const InstrAttr &a : p.attrs)
    out += indent_str(1) + a.key + ": " + join_exprs(a.values) + "\n";
  for (const Expr &e : p.preds)
    out += indent_str(1) + "assert " + print_expr(e) + "\n";
  return out;
}

std::string print_proc(const ProcNode &p) {
  std::string out = print_proc_header(p);
  if (p.body.empty() && p.preds.empty() && p.attrs.empty())
    return out + indent_str(1) + "pass\n";
  return out + print_block(p.body, 1);
}

// --- Scripts -------------------------------------------------------------------

namespace {
int script_prec(const script::Expr &e) {
  using script::ExprKind;
  switch (e->kind) {
  case ExprKind::BinOp: return script::binop_precedence(e->text);
  case ExprKind::UnOp: return e->text == "not" ? kNotPrec : kUnaryPrec;
  case ExprKind::Int: return e->int_value < 0 ? kUnaryPrec : kPostfixPrec + 1;
  default: return kPostfixPrec + 1;
  }
}

std::string script_at(const script::Expr &e, int min_prec) {
  std::string s = print_script_expr(e);
  return script_prec(e) < min_prec ? "(" + s + ")" : s;
}

std::string script_list(const std::vector<script::Expr> &items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + print_script_expr(items[i]);
  return s;
}

std::string script_body(const script::Block &b, int indent) {
  return b.empty() ? indent_str(indent) + "pass\n" : print_script_block(b, indent);
}
} // namespace

std::string print_script_expr(const script::Expr &e) {
  using script::ExprKind;
  if (!e)
    return "";
  switch (e->kind) {
  case ExprKind::Name: return e->text;
  case ExprKind::Int: return std::to_string(e->int_value);
  case ExprKind::Str: return quote(e->text);
  case ExprKind::Bool: return e->int_value ? "True" : "False";
  case ExprKind::List: return "[" + script_list(e->items) + "]";
  case ExprKind::Call: {
    std::string s = script_list(e->items);
    for (const script::KwArg &k : e->kwargs)
      s += (s.empty() ? "" : ", ") + k.key + "=" + print_script_expr(k.value);
    return script_at(e->callee, kPostfixPrec) + "(" + s + ")";
  }
  case ExprKind::Attr: return script_at(e->callee, kPostfixPrec) + "." + e->text;
  case ExprKind::Index:
    return script_at(e->callee, kPostfixPrec) + "[" + print_script_expr(e->items[0]) + "]";
  case ExprKind::Slice:
    return print_script_expr(e->items[0]) + ":" + print_script_expr(e->items[1]);
  case ExprKind::BinOp: {
    int p = script::binop_precedence(e->text);
    int left_min = p == 4 ? p + 1 : p;
    return script_at(e->items[0], left_min) + " " + e->text + " " + script_at(e->items[1], p + 1);
  }
  case ExprKind::UnOp:
    if (e->text == "not")
      return "not " + script_at(e->items[0], kNotPrec);
    return "-" + script_at(e->items[0], kUnaryPrec + 1);
  }
  EXGC_UNREACHABLE("script expr kind");
}

std::string print_script_block(const script::Block &b, int indent) {
  using script::StmtKind;
  std::string out, in = indent_str(indent);
  for (const script::Stmt &s : b) {
    out += comments_before(s->loc, indent);
    switch (s->kind) {
    case StmtKind::Assign:
      out += in + s->target + " = " + print_script_expr(s->value) + "\n";
      break;
    case StmtKind::ExprStmt: out += in + print_script_expr(s->value) + "\n"; break;
    case StmtKind::If: {
      out += in + "if " + print_script_expr(s->value) + ":\n" + script_body(s->body, indent + 1);
      const script::Block *els = &s->orelse;
      while (els->size() == 1 && (*els)[0]->kind == StmtKind::If) {
        const script::Stmt &e = (*els)[0];
        out += in + "elif " + print_script_expr(e->value) + ":\n" + script_body(e->body, indent + 1);
        els = &e->orelse;
      }
      if (!els->empty())
        out += in + "else:\n" + print_script_block(*els, indent + 1);
      break;
    }
    case StmtKind::For:
      out += in + "for " + s->target + " in " + print_script_expr(s->value) + ":\n" +
             script_body(s->body, indent + 1);
      break;
    case StmtKind::Return:
      out += in + (s->value ? "return " + print_script_expr(s->value) : "return") + "\n";
      break;
    case StmtKind::Pass: out += in + "pass\n"; break;
    }
  }
  return out;
}

// --- Modules -------------------------------------------------------------------

namespace {
struct DeclPrinter {
  std::string operator()(const ImportDecl &d) const {
    return "import " + d.dotted() + (d.alias.empty() ? "" : " as " + d.alias) + "\n";
  }
  std::string operator()(const Proc &p) const { return print_proc(*p); }
  std::string operator()(const DefDecl &d) const {
    std::string params;
    for (size_t i = 0; i < d.params.size(); ++i)
      params += (i ? ", " : "") + d.params[i];
    return "def " + d.name + "(" + params + "):\n" + script_body(d.body, 1);
  }
  std::string operator()(const ScheduleDecl &d) const {
    return "schedule " + d.name + " from " + d.from + ":\n" + script_body(d.body, 1);
  }
  std::string operator()(const CheckDecl &d) const {
    return "check " + d.proc + "(" + args_text({}, d.sizes) + ")\n";
  }
  std::string operator()(const ValueDecl &d) const {
    return d.name + " = " + print_script_expr(d.value) + "\n";
  }
  std::string operator()(const ExportDecl &d) const {
    std::string s = "export ";
    for (size_t i = 0; i < d.names.size(); ++i)
      s += (i ? ", " : "") + d.names[i];
    return s + "\n";
  }
};
} // namespace

namespace {

SrcLoc decl_loc(const Decl &d) {
  return std::visit(
      [](const auto &x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Proc>)
          return x->loc;
        else
          return x.loc;
      },
      d);
}

/// Lines whose first character that is not a space is '#', in line order.
PendingComments full_line_comments(const std::string &source) {
  PendingComments c;
  uint32_t line = 1;
  for (size_t start = 0; start < source.size(); ++line) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos)
      end = source.size();
    size_t first = source.find_first_not_of(" \t\f\r", start);
    if (first < end && source[first] == '#') {
      size_t last = source.find_last_not_of(" \t\f\r", end - 1);
      c.lines.push_back({line, source.substr(first, last + 1 - first)});
    }
    start = end + 1;
  }
  return c;
}

} // namespace

std::string print_module(const Module &m, const std::string *source) {
  PendingComments comments;
  if (source)
    comments = full_line_comments(*source);
  // Restored on the way out, also by an exception.
  struct Lend {
    PendingComments *saved = pending_comments;
    explicit Lend(PendingComments *c) { pending_comments = c; }
    ~Lend() { pending_comments = saved; }
  } lend(source ? &comments : nullptr);
  std::string out;
  for (size_t i = 0; i < m.decls.size(); ++i) {
    if (i)
      out += "\n";
    out += comments_before(decl_loc(m.decls[i]), 0);
    out += std::visit(DeclPrinter{}, m.decls[i]);
  }
  if (source)
    out += comments.take_before(UINT32_MAX, 0);
  return out;
}

} // namespace exgc
