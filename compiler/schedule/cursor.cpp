// cursor.cpp - statement lookup by id, navigation, find -----------------------//
#include "compiler/schedule/cursor.h"

#include "compiler/schedule/pattern.h"

#include <cctype>

namespace exgc::schedule {
namespace {

bool locate_in(const Block &b, const Stmt &parent, NodeId node, Located &out) {
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i]->id == node) {
      out = {&b, i, parent, b[i]};
      return true;
    }
    for (const Block *child : child_blocks(b[i]))
      if (locate_in(*child, b[i], node, out))
        return true;
  }
  return false;
}

/// Every statement of `b` in program order (pre-order).
void preorder(const Block &b, std::vector<Stmt> &out) {
  for (const Stmt &s : b) {
    out.push_back(s);
    for (const Block *child : child_blocks(s))
      preorder(*child, out);
  }
}

Cursor make_cursor(const Proc &p, Cursor::Kind k, NodeId node, size_t count = 1) {
  Cursor c;
  c.kind = k;
  c.node = node;
  c.count = count;
  c.proc = p;
  return c;
}

bool is_identifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'))
      return false;
  return true;
}

} // namespace

std::vector<const Block *> child_blocks(const Stmt &s) {
  if (const auto *f = s.as<For>())
    return {&f->body};
  if (const auto *i = s.as<If>())
    return {&i->then_body, &i->else_body};
  if (const auto *w = s.as<With>())
    return {&w->body};
  return {};
}

bool locate(const ProcNode &p, NodeId node, Located &out) {
  return locate_in(p.body, Stmt(), node, out);
}

Cursor gap_arg(Interpreter &in, const Proc &p, const Value &v, const char *prim, SrcLoc loc) {
  if (v.kind != Value::Kind::Cursor ||
      (v.cursor.kind != Cursor::Kind::GapBefore && v.cursor.kind != Cursor::Kind::GapAfter))
    in.fail(loc, DiagKind::CursorKindMismatch, "'" + std::string(prim) + "'",
            "a gap ('c.before()' or 'c.after()')");
  resolve(in, p, v.cursor, loc);
  return v.cursor;
}

std::string context_name(const With &w) {
  if (!w.ctx)
    return "";
  if (const auto *c = w.ctx.as<Call>())
    return c->func;
  if (const auto *v = w.ctx.as<Var>())
    return v->name.name;
  return "";
}

bool in_device_function(const ProcNode &p, NodeId node) {
  Located l;
  while (locate(p, node, l) && l.parent) {
    if (const auto *w = l.parent.as<With>(); w && context_name(*w) == "CudaDeviceFunction")
      return true;
    node = l.parent->id;
  }
  return false;
}


Located resolve(Interpreter &in, const Proc &p, const Cursor &c, SrcLoc loc) {
  Located l;
  if (!locate(*p, c.node, l) || l.index + c.count > l.block->size())
    in.fail(loc, DiagKind::CursorGone, p->name);
  return l;
}

Value cursor_method(Interpreter &in, const Proc &p, const Cursor &c, const std::string &method,
                    const std::vector<Value> &args, SrcLoc loc) {
  Located l = resolve(in, p, c, loc);
  auto need_stmt = [&](const char *what) {
    if (c.kind != Cursor::Kind::Stmt && c.kind != Cursor::Kind::Block)
      in.fail(loc, DiagKind::CursorKindMismatch, "'" + method + "'", what);
  };
  if (method == "parent") {
    need_stmt("a statement");
    if (!l.parent)
      in.fail(loc, DiagKind::CursorNoParent);
    return Value::of_cursor(make_cursor(p, Cursor::Kind::Stmt, l.parent->id));
  }
  if (method == "body") {
    need_stmt("a statement");
    std::vector<const Block *> blocks = child_blocks(l.stmt);
    if (blocks.empty() || blocks[0]->empty())
      in.fail(loc, DiagKind::CursorKindMismatch, "'body'", "a loop, an if or a with block");
    return Value::of_cursor(
        make_cursor(p, Cursor::Kind::Block, (*blocks[0])[0]->id, blocks[0]->size()));
  }
  if (method == "next" || method == "prev") {
    need_stmt("a statement");
    size_t last = l.index + c.count - 1;
    if (method == "next" ? last + 1 >= l.block->size() : l.index == 0)
      in.fail(loc, DiagKind::CursorNoSibling, method == "next" ? "next" : "previous");
    size_t i = method == "next" ? last + 1 : l.index - 1;
    return Value::of_cursor(make_cursor(p, Cursor::Kind::Stmt, (*l.block)[i]->id));
  }
  if (method == "before")
    return Value::of_cursor(make_cursor(p, Cursor::Kind::GapBefore, c.node));
  if (method == "after") {
    NodeId last = (*l.block)[l.index + c.count - 1]->id;
    return Value::of_cursor(make_cursor(p, Cursor::Kind::GapAfter, last));
  }
  if (method == "expand") {
    // expand(a, b): a more statements before, b more after.
    int64_t before = args.size() > 0 && args[0].kind == Value::Kind::Int ? args[0].int_value : 0;
    int64_t after = args.size() > 1 && args[1].kind == Value::Kind::Int ? args[1].int_value : 0;
    if (before < 0 || after < 0 || static_cast<size_t>(before) > l.index ||
        l.index + c.count + static_cast<size_t>(after) > l.block->size())
      in.fail(loc, DiagKind::ScriptIndexRange, std::to_string(before) + ", " + std::to_string(after),
              std::to_string(l.block->size()));
    size_t first = l.index - static_cast<size_t>(before);
    return Value::of_cursor(make_cursor(p, Cursor::Kind::Block, (*l.block)[first]->id,
                                        c.count + static_cast<size_t>(before + after)));
  }
  in.fail(loc, DiagKind::ScriptNoMethod, "a cursor", method);
}

Value cursor_index(Interpreter &in, const Proc &p, const Cursor &c, int64_t lo, int64_t hi,
                   bool is_slice, SrcLoc loc) {
  Located l = resolve(in, p, c, loc);
  int64_t n = static_cast<int64_t>(c.count);
  if (lo < 0)
    lo += n;
  if (is_slice && hi < 0)
    hi += n;
  if (!is_slice)
    hi = lo < n ? lo + 1 : n + 1; // no overflow at INT64_MAX
  if (lo < 0 || hi > n || lo >= hi)
    in.fail(loc, DiagKind::ScriptIndexRange, is_slice ? std::to_string(lo) + ":" + std::to_string(hi)
                                                      : std::to_string(lo),
            std::to_string(n));
  NodeId first = (*l.block)[l.index + static_cast<size_t>(lo)]->id;
  if (!is_slice)
    return Value::of_cursor(make_cursor(p, Cursor::Kind::Stmt, first));
  return Value::of_cursor(make_cursor(p, Cursor::Kind::Block, first, static_cast<size_t>(hi - lo)));
}

Cursor find_stmt(Interpreter &in, const Proc &p, const std::string &pattern, SrcLoc loc) {
  std::string text = pattern;
  int64_t nth = split_nth(text);
  if (nth < 1)
    in.fail(loc, DiagKind::PatternNotSupported, pattern,
            "'#' appears once, at the end, followed by the number of a match, counting from 1");
  if (is_identifier(text) && text != "pass") {
    // The shorthand: a loop over `text` or the allocation of `text`.
    std::vector<Stmt> all;
    preorder(p->body, all);
    for (const Stmt &s : all) {
      bool match = false;
      if (const auto *f = s.as<For>())
        match = f->iter.name == text;
      else if (const auto *a = s.as<Alloc>())
        match = a->name.name == text;
      if (match && --nth == 0)
        return make_cursor(p, Cursor::Kind::Stmt, s->id);
    }
    in.fail(loc, DiagKind::PatternNoMatch, pattern, p->name);
  }
  std::vector<FragStmtP> frag;
  FragmentError err;
  if (!parse_stmt_fragment(text, frag, err)) {
    if (err.syntax)
      in.fail(loc, DiagKind::PatternSyntax, pattern, err.message);
    in.fail(loc, DiagKind::PatternNotSupported, pattern, err.message);
  }
  std::vector<StmtMatch> matches = find_stmt_matches(p->body, frag);
  if (static_cast<size_t>(nth) > matches.size())
    in.fail(loc, DiagKind::PatternNoMatch, pattern, p->name);
  const StmtMatch &m = matches[static_cast<size_t>(nth - 1)];
  NodeId first = (*m.block)[m.index]->id;
  if (m.count == 1)
    return make_cursor(p, Cursor::Kind::Stmt, first);
  return make_cursor(p, Cursor::Kind::Block, first, m.count);
}

} // namespace exgc::schedule
