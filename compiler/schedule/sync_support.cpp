// sync_support.cpp - barrier expressions, device test, re-check of inserts ---//
#include "compiler/schedule/sync_support.h"

#include <map>

#include "compiler/frontend/fragment.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"

namespace exgc::schedule {
namespace {

/// Barriers allocated before statement `node` in the blocks around it (with
/// `self`, `node` itself too). False when `node` is not in `b`.
bool visible(const Block &b, NodeId node, bool self, std::map<std::string, Sym> &out) {
  std::map<std::string, Sym> saved = out; // this block's names only count around `node`
  for (const Stmt &s : b) {
    bool here = s->id == node;
    if (here && !self)
      return true;
    if (const auto *a = s.as<Alloc>(); a && a->type.kind == Type::Kind::Barrier)
      out[a->name.name] = a->name;
    if (here)
      return true;
    for (const Block *c : child_blocks(s))
      if (visible(*c, node, self, out))
        return true;
  }
  out = saved;
  return false;
}

} // namespace

Expr barrier_expr(Interpreter &in, const Proc &p, const Stmt &at, bool self,
                  const std::string &text, SrcLoc loc) {
  FragExprP f;
  FragmentError err;
  if (!parse_expr_fragment(text, f, err))
    in.fail(loc, DiagKind::SyncExprSyntax, text, err.message);
  const FragExpr *base = f->kind == FragExpr::Kind::Index ? f->items[0].get() : f.get();
  if (base->kind != FragExpr::Kind::Name)
    in.fail(loc, DiagKind::SyncExprSyntax, text, "expected a barrier name, optionally subscripted");
  std::map<std::string, Sym> bars;
  for (const Arg &a : p->args)
    if (a.type.kind == Type::Kind::Barrier)
      bars[a.name.name] = a.name;
  visible(p->body, at->id, self, bars);
  auto it = bars.find(base->text);
  if (it == bars.end())
    in.fail(loc, DiagKind::SyncExprSyntax, text,
            "'" + base->text + "' is not a barrier allocated before this place");
  std::map<std::string, Expr> scope = index_names(*p, context_at(p, at));
  auto index = [&](const FragExprP &e) -> Expr {
    if (!e)
      return Expr();
    std::string bad;
    Expr x = build_index_expr(*e, scope, bad);
    if (!x)
      in.fail(loc, DiagKind::SyncExprSyntax, text,
              names_unknown(bad) ? bad + " is not a size, index or loop iterator visible here" : bad);
    return at_loc(x, loc);
  };
  std::vector<WindowIdx> idx;
  bool slice = false;
  for (size_t i = 1; f->kind == FragExpr::Kind::Index && i < f->items.size(); ++i) {
    const FragExprP &s = f->items[i];
    if (s->kind == FragExpr::Kind::Slice) {
      slice = true;
      idx.push_back(WindowIdx::slice(index(s->items[0]), index(s->items[1])));
    } else {
      idx.push_back(WindowIdx::point(index(s)));
    }
  }
  if (slice)
    return WindowExpr::make(it->second, std::move(idx), ValueType::Meta, loc);
  std::vector<Expr> points;
  for (const WindowIdx &w : idx)
    points.push_back(w.lo);
  return Read::make(it->second, std::move(points), ValueType::Meta, loc);
}

Stmt gap_anchor(Interpreter &in, const Proc &p, const Value &gap, const char *prim, SrcLoc loc) {
  return resolve(in, p, gap_arg(in, p, gap, prim, loc), loc).stmt;
}

SyncSite sync_site(Interpreter &in, const CallSite &call, const char *what) {
  const Proc &p = call.proc();
  const Value &gap = call.arg("gap").value;
  SyncSite s;
  s.at = gap_anchor(in, p, gap, call.name.c_str(), call.loc);
  s.after = gap.cursor.kind == Cursor::Kind::GapAfter;
  s.timeline = timeline_arg(in, call.arg("timeline"));
  require_device(in, *p, s.at->id, what, call.loc);
  return s;
}

void require_device(Interpreter &in, const ProcNode &p, NodeId node, const std::string &what,
                    SrcLoc loc) {
  if (!in_device_function(p, node))
    in.fail(loc, DiagKind::SyncOutsideDevice, what);
}

std::string timeline_arg(Interpreter &in, const PrimArg &arg) {
  const Value &v = arg.value;
  const auto *name = v.kind == Value::Kind::Meta ? v.meta.as<Var>() : nullptr;
  if (!name)
    fail_arg(in, arg, "a timeline", v.type_name());
  return name->name.name;
}

void check_inserted(Interpreter &in, const Proc &out, const std::string &what,
                    const std::vector<SrcLoc> &locs, SrcLoc loc) {
  if (auto err = first_error_at(in, *out, locs))
    fail_with_cause(in, loc, *err, DiagKind::SyncInsertRejected, what);
}

} // namespace exgc::schedule
