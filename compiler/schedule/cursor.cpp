// cursor.cpp - statement lookup by id, navigation, find -----------------------//
#include "compiler/schedule/cursor.h"

#include "compiler/schedule/pattern.h"
#include "compiler/support/did_you_mean.h"

#include <cctype>
#include <map>

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

/// The iterator of a pattern `for NAME in ...`; empty when it is `_`.
std::string loop_iter_of(const std::string &pattern) {
  size_t b = 4, e = pattern.find(' ', b);
  std::string name = pattern.substr(b, e == std::string::npos ? e : e - b);
  return name == "_" ? "" : name;
}

/// For a pattern that matched nothing: the closest name and the loops (and,
/// with `allocs`, the allocations) there are, at most eight, in order.
std::string names_hint(const std::string &name, const std::vector<Stmt> &all, bool allocs) {
  std::vector<std::string> loops, buffers;
  for (const Stmt &s : all) {
    if (const auto *f = s.as<For>())
      loops.push_back(f->iter.name);
    else if (const auto *a = s.as<Alloc>(); a && allocs)
      buffers.push_back(a->name.name);
  }
  auto listed = [](const char *what, const std::vector<std::string> &names) -> std::string {
    if (names.empty())
      return std::string("; it has no ") + what;
    std::string out = std::string("; its ") + what + ": ";
    for (size_t i = 0; i < names.size() && i < 8; ++i)
      out += (i ? ", " : "") + names[i];
    return out + (names.size() > 8 ? ", ..." : "");
  };
  std::vector<std::string> all_names = loops;
  all_names.insert(all_names.end(), buffers.begin(), buffers.end());
  std::string hint = listed("loops", loops);
  if (allocs && !buffers.empty())
    hint += listed("allocations", buffers);
  return hint + (name.empty() ? "" : did_you_mean(name, all_names));
}

/// A cursor to what `find` gave in `p` (navigation sets its own `found`).
Cursor make_cursor(const Proc &p, Cursor::Kind k, NodeId node, size_t count = 1) {
  Cursor c;
  c.kind = k;
  c.node = node;
  c.count = count;
  c.proc = p;
  c.found = node;
  c.found_count = count;
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
  return forward_cursor(in, p, v.cursor, loc);
}

bool in_device_function(const ProcNode &p, NodeId node) {
  Located l;
  while (locate(p, node, l) && l.parent) {
    if (const auto *w = l.parent.as<With>(); w && w->context() == ContextKind::CudaDeviceFunction)
      return true;
    node = l.parent->id;
  }
  return false;
}

namespace {

/// Where the statements of `c` sit in `c.proc`; false when they are not all there.
bool locate_all(const Cursor &c, Located &out) {
  return locate(*c.proc, c.node, out) && out.index + c.count <= out.block->size();
}

/// `at` (a cursor into at.proc, its statements there) moved one navigation step.
Cursor navigate(Interpreter &in, const Cursor &at, const CursorNav &nav, SrcLoc loc) {
  using Op = CursorNav::Op;
  Located l;
  EXGC_CHECK(locate_all(at, l)) << "navigating from a cursor that is not in its proc";
  const Proc &p = at.proc;
  auto need_stmt = [&](const char *method) {
    if (at.kind != Cursor::Kind::Stmt && at.kind != Cursor::Kind::Block)
      in.fail(loc, DiagKind::CursorKindMismatch, "'" + std::string(method) + "'", "a statement");
  };
  switch (nav.op) {
  case Op::Parent:
    need_stmt("parent");
    if (!l.parent)
      in.fail(loc, DiagKind::CursorNoParent);
    return make_cursor(p, Cursor::Kind::Stmt, l.parent->id);
  case Op::Body: {
    need_stmt("body");
    std::vector<const Block *> blocks = child_blocks(l.stmt);
    if (blocks.empty() || blocks[0]->empty())
      in.fail(loc, DiagKind::CursorKindMismatch, "'body'", "a loop, an if or a with block");
    return make_cursor(p, Cursor::Kind::Block, (*blocks[0])[0]->id, blocks[0]->size());
  }
  case Op::Next:
  case Op::Prev: {
    bool next = nav.op == Op::Next;
    need_stmt(next ? "next" : "prev");
    size_t last = l.index + at.count - 1;
    if (next ? last + 1 >= l.block->size() : l.index == 0)
      in.fail(loc, DiagKind::CursorNoSibling, next ? "next" : "previous");
    return make_cursor(p, Cursor::Kind::Stmt, (*l.block)[next ? last + 1 : l.index - 1]->id);
  }
  case Op::Before: return make_cursor(p, Cursor::Kind::GapBefore, at.node);
  case Op::After:
    return make_cursor(p, Cursor::Kind::GapAfter, (*l.block)[l.index + at.count - 1]->id);
  case Op::Expand: {
    // expand(a, b): a more statements before, b more after.
    if (nav.a < 0 || nav.b < 0 || static_cast<size_t>(nav.a) > l.index ||
        l.index + at.count + static_cast<size_t>(nav.b) > l.block->size())
      in.fail(loc, DiagKind::ScriptIndexRange, std::to_string(nav.a) + ", " + std::to_string(nav.b),
              std::to_string(l.block->size()));
    size_t first = l.index - static_cast<size_t>(nav.a);
    return make_cursor(p, Cursor::Kind::Block, (*l.block)[first]->id,
                       at.count + static_cast<size_t>(nav.a + nav.b));
  }
  case Op::Index:
  case Op::Slice: {
    int64_t n = static_cast<int64_t>(at.count);
    bool slice = nav.op == Op::Slice;
    int64_t hi = slice ? nav.b : nav.a < n ? nav.a + 1 : n + 1; // no overflow at INT64_MAX
    if (nav.a < 0 || hi > n || nav.a >= hi)
      in.fail(loc, DiagKind::ScriptIndexRange,
              slice ? std::to_string(nav.a) + ":" + std::to_string(nav.b) : std::to_string(nav.a),
              std::to_string(n));
    NodeId first = (*l.block)[l.index + static_cast<size_t>(nav.a)]->id;
    if (!slice)
      return make_cursor(p, Cursor::Kind::Stmt, first);
    return make_cursor(p, Cursor::Kind::Block, first, static_cast<size_t>(hi - nav.a));
  }
  }
  EXGC_UNREACHABLE("cursor navigation");
}

/// `c` moved by `nav` in the proc it was made from; the result keeps what
/// `find` gave and the path so far, for forwarding.
Value navigated(Interpreter &in, const Cursor &c, const CursorNav &nav, SrcLoc loc) {
  Cursor out = navigate(in, c, nav, loc);
  out.found = c.found;
  out.found_count = c.found_count;
  out.path = c.path;
  out.path.push_back(nav);
  return Value::of_cursor(std::move(out));
}

/// Reports why `c` cannot be forwarded to `q` (q lacks what `find` gave) and aborts.
[[noreturn]] void fail_forward(Interpreter &in, const Proc &q, const Cursor &c, SrcLoc loc) {
  auto holds = [&](const Proc &p) {
    Located l;
    return locate(*p, c.found, l) && l.index + c.found_count <= l.block->size();
  };
  // Walking back from q: the step nearest q whose input held the statements
  // and whose result did not deleted them, if c's proc is an ancestor.
  const Interpreter::Step *deleted_by = nullptr;
  for (const auto &[proc, step] : in.lineage(q)) {
    if (proc.get() == c.proc.get()) {
      auto d = in.diag().report(loc, DiagKind::CursorDeleted, c.proc->name);
      if (deleted_by)
        d.note(deleted_by->loc, "'" + deleted_by->primitive + "' deleted it here");
      throw ScriptAbort{};
    }
    if (!deleted_by && step && holds(step->before))
      deleted_by = step;
  }
  in.fail(loc, DiagKind::CursorGone, c.proc->name, q->name);
}

} // namespace

Cursor forward_cursor(Interpreter &in, const Proc &q, const Cursor &c, SrcLoc loc) {
  if (q.get() == c.proc.get())
    return c;
  Cursor at = make_cursor(q, c.found_count > 1 ? Cursor::Kind::Block : Cursor::Kind::Stmt, c.found,
                          c.found_count);
  Located l;
  if (!locate_all(at, l))
    fail_forward(in, q, c, loc);
  for (const CursorNav &nav : c.path)
    at = navigate(in, at, nav, loc);
  return at;
}

Cursor cursor_arg(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc) {
  if (v.kind == Value::Kind::Cursor)
    return forward_cursor(in, p, v.cursor, loc);
  return find_stmt(in, p, v.str, loc);
}

Located resolve(Interpreter &in, const Proc &p, const Cursor &c, SrcLoc loc) {
  Located l;
  EXGC_CHECK(locate_all(forward_cursor(in, p, c, loc), l)) << "a forwarded cursor not in its proc";
  return l;
}

Value cursor_method(Interpreter &in, const Cursor &c, const std::string &method,
                    const std::vector<Value> &args, SrcLoc loc) {
  using Op = CursorNav::Op;
  static const std::map<std::string, Op> methods = {
      {"parent", Op::Parent}, {"body", Op::Body},   {"next", Op::Next},    {"prev", Op::Prev},
      {"before", Op::Before}, {"after", Op::After}, {"expand", Op::Expand}};
  auto m = methods.find(method);
  if (m == methods.end())
    in.fail(loc, DiagKind::ScriptNoMethod, "a cursor", method);
  CursorNav nav{m->second};
  if (nav.op == Op::Expand) {
    nav.a = args.size() > 0 && args[0].kind == Value::Kind::Int ? args[0].int_value : 0;
    nav.b = args.size() > 1 && args[1].kind == Value::Kind::Int ? args[1].int_value : 0;
  }
  return navigated(in, c, nav, loc);
}

Value cursor_index(Interpreter &in, const Cursor &c, int64_t lo, int64_t hi, bool is_slice,
                   SrcLoc loc) {
  // Negative positions count from the end of the block in c's proc.
  int64_t n = static_cast<int64_t>(c.count);
  if (lo < 0)
    lo += n;
  if (is_slice && hi < 0)
    hi += n;
  return navigated(in, c, {is_slice ? CursorNav::Op::Slice : CursorNav::Op::Index, lo, hi}, loc);
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
    in.fail(loc, DiagKind::PatternNoMatch, pattern, p->name, names_hint(text, all, true));
  }
  std::vector<FragStmtP> frag;
  FragmentError err;
  if (!parse_stmt_fragment(text, frag, err)) {
    if (err.syntax)
      in.fail(loc, DiagKind::PatternSyntax, pattern, err.message);
    in.fail(loc, DiagKind::PatternNotSupported, pattern, err.message);
  }
  std::vector<StmtMatch> matches = find_stmt_matches(p->body, frag);
  if (static_cast<size_t>(nth) > matches.size()) {
    std::vector<Stmt> all;
    preorder(p->body, all);
    bool loop = frag.size() == 1 && text.compare(0, 4, "for ") == 0;
    in.fail(loc, DiagKind::PatternNoMatch, pattern, p->name,
            loop ? names_hint(loop_iter_of(text), all, false) : "");
  }
  const StmtMatch &m = matches[static_cast<size_t>(nth - 1)];
  NodeId first = (*m.block)[m.index]->id;
  if (m.count == 1)
    return make_cursor(p, Cursor::Kind::Stmt, first);
  return make_cursor(p, Cursor::Kind::Block, first, m.count);
}

} // namespace exgc::schedule
