// script_calls.cpp - calls in schedule scripts: defs, builtins, primitives,
// descriptor constructors and methods ----------------------------------------//
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// A script value as an expression inside a descriptor (`warp_role("p", 4)`).
bool to_meta_expr(const Value &v, SrcLoc loc, Expr &out) {
  switch (v.kind) {
  case Value::Kind::Int: out = IntImm::make(v.int_value, loc); return true;
  case Value::Kind::Bool: out = BoolImm::make(v.int_value != 0, loc); return true;
  case Value::Kind::Str: out = StrImm::make(v.str, loc); return true;
  case Value::Kind::Meta: out = v.meta; return true;
  case Value::Kind::List: {
    std::vector<Expr> elems;
    for (const Value &i : *v.list) {
      Expr e;
      if (!to_meta_expr(i, loc, e))
        return false;
      elems.push_back(e);
    }
    out = ListExpr::make(std::move(elems), loc);
    return true;
  }
  default: return false;
  }
}

bool kind_matches(ParamKind k, const Value &v) {
  switch (k) {
  case ParamKind::Proc: return v.kind == Value::Kind::Proc;
  case ParamKind::Stmt: return v.kind == Value::Kind::Cursor || v.kind == Value::Kind::Str;
  case ParamKind::Int: return v.kind == Value::Kind::Int;
  case ParamKind::Bool: return v.kind == Value::Kind::Bool;
  case ParamKind::Str: return v.kind == Value::Kind::Str;
  case ParamKind::List: return v.kind == Value::Kind::List;
  case ParamKind::Meta: return v.kind == Value::Kind::Meta;
  case ParamKind::Any: return true;
  }
  return false;
}

} // namespace

Value Interpreter::eval_call(const script::ExprNode &e, Frame &f) {
  // Methods: obj.name(args).
  if (e.callee->kind == script::ExprKind::Attr) {
    Value obj = eval(e.callee->callee, f);
    std::vector<Value> args;
    for (const script::Expr &a : e.items)
      args.push_back(eval(a, f));
    return call_method(obj, e.callee->text, e.loc, std::move(args), f);
  }
  Value callee = eval(e.callee, f);
  std::vector<Value> args;
  for (const script::Expr &a : e.items)
    args.push_back(eval(a, f));
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<SrcLoc> kwlocs;
  for (const script::KwArg &k : e.kwargs) {
    kwargs.push_back({k.key, eval(k.value, f)});
    kwlocs.push_back(k.loc);
  }

  // Descriptor constructors: CudaDeviceFunction(...), cuda_threads(unit=...).
  if (callee.kind == Value::Kind::Meta) {
    const auto *name = callee.meta.as<Var>();
    if (!name)
      fail(e.loc, DiagKind::ScriptNotCallable, "'" + print_expr(callee.meta) + "'");
    std::vector<Expr> margs;
    std::vector<KwArg> mkw;
    for (size_t i = 0; i < args.size(); ++i) {
      Expr x;
      if (!to_meta_expr(args[i], e.items[i]->loc, x))
        fail(e.items[i]->loc, DiagKind::ScriptArgType, i + 1, "", name->name.name,
             "an int, str, list or descriptor", args[i].type_name());
      margs.push_back(x);
    }
    for (size_t i = 0; i < kwargs.size(); ++i) {
      Expr x;
      if (!to_meta_expr(kwargs[i].second, kwlocs[i], x))
        fail(kwlocs[i], DiagKind::ScriptArgType, args.size() + i + 1, kwargs[i].first,
             name->name.name, "an int, str, list or descriptor", kwargs[i].second.type_name());
      mkw.push_back({kwargs[i].first, x, kwlocs[i]});
    }
    return Value::of_meta(Call::make(name->name.name, std::move(margs), std::move(mkw),
                                     ValueType::Meta, e.loc));
  }
  if (callee.kind != Value::Kind::Func)
    fail(e.loc, DiagKind::ScriptNotCallable, callee.a_type());
  if (callee.def)
    return call_def(*callee.def, e.loc, std::move(args), std::move(kwargs), f.module);

  // Builtins.
  const std::string &fn = callee.str;
  if (fn == "print") {
    std::string text;
    for (size_t i = 0; i < args.size(); ++i)
      text += (i ? " " : "") + args[i].to_display();
    diag_.report(e.loc, DiagKind::ScriptPrint, text);
    return Value::none();
  }
  if (fn == "len") {
    if (args.size() != 1 || args[0].kind != Value::Kind::List)
      fail(e.loc, DiagKind::ScriptArgType, 1, "x", "len", "list",
           args.empty() ? "nothing" : args[0].type_name());
    return Value::of_int(static_cast<int64_t>(args[0].list->size()));
  }
  if (fn == "range") {
    if (args.empty() || args.size() > 2)
      fail(e.loc, DiagKind::ScriptArgCount, "range", 2, args.size());
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].kind != Value::Kind::Int)
        fail(e.items[i]->loc, DiagKind::ScriptArgType, i + 1, i ? "stop" : "start", "range", "int",
             args[i].type_name());
    int64_t lo = args.size() == 2 ? args[0].int_value : 0;
    int64_t hi = args.back().int_value;
    if (hi - lo > kMaxSteps)
      fail(e.loc, DiagKind::ScriptStepLimit, kMaxSteps);
    std::vector<Value> items;
    for (int64_t i = lo; i < hi; ++i)
      items.push_back(Value::of_int(i));
    return Value::of_list(std::move(items));
  }

  // Primitives: bind arguments to parameters, check their kinds, run.
  const PrimitiveSpec *spec = find_primitive(fn);
  EXGC_CHECK(spec) << "function value without a definition: " << fn;
  if (!spec->fn)
    fail(e.loc, DiagKind::PrimitiveNotImplemented, fn);
  CallSite site{e.loc, fn, std::vector<Value>(spec->params.size())};
  std::vector<bool> given(spec->params.size(), false);
  if (args.size() > spec->params.size())
    fail(e.loc, DiagKind::ScriptArgCount, fn, spec->params.size(), args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    site.args[i] = args[i];
    given[i] = true;
  }
  for (size_t k = 0; k < kwargs.size(); ++k) {
    size_t i = 0;
    while (i < spec->params.size() && kwargs[k].first != spec->params[i].name)
      ++i;
    if (i == spec->params.size())
      fail(kwlocs[k], DiagKind::ScriptUnknownKeyword, fn, kwargs[k].first);
    if (given[i])
      fail(kwlocs[k], DiagKind::ScriptDuplicateArg, fn, kwargs[k].first);
    site.args[i] = kwargs[k].second;
    given[i] = true;
  }
  for (size_t i = 0; i < spec->params.size(); ++i) {
    const Param &param = spec->params[i];
    if (!given[i]) {
      if (param.required)
        fail(e.loc, DiagKind::ScriptMissingArg, fn, param.name);
      continue;
    }
    if (!kind_matches(param.kind, site.args[i])) {
      SrcLoc at = i < e.items.size() ? e.items[i]->loc : e.loc;
      fail(at, DiagKind::ScriptArgType, i + 1, param.name, fn, param_kind_name(param.kind),
           site.args[i].type_name());
    }
  }
  Value out = spec->fn(*this, site);
  if (out.kind == Value::Kind::Proc && !spec->params.empty() &&
      spec->params[0].kind == ParamKind::Proc) {
    successor_[site.args[0].proc.get()] = out.proc;
    history_.push_back({current_, spec->name, e.loc, site.args[0].proc, out.proc});
  }
  return out;
}

Value Interpreter::call_def(const DefDecl &def, SrcLoc loc, std::vector<Value> args,
                            std::vector<std::pair<std::string, Value>> kwargs,
                            const LoadedModule *module) {
  if (depth_ >= kMaxDepth)
    fail(loc, DiagKind::ScriptRecursionLimit, kMaxDepth);
  if (args.size() > def.params.size())
    fail(loc, DiagKind::ScriptArgCount, "'" + def.name + "'", def.params.size(), args.size());
  Frame frame{{}, module};
  for (size_t i = 0; i < args.size(); ++i)
    frame.vars[def.params[i]] = args[i];
  for (auto &[key, value] : kwargs) {
    bool known = false;
    for (const std::string &p : def.params)
      known |= p == key;
    if (!known)
      fail(loc, DiagKind::ScriptUnknownKeyword, "'" + def.name + "'", key);
    if (frame.vars.count(key))
      fail(loc, DiagKind::ScriptDuplicateArg, "'" + def.name + "'", key);
    frame.vars[key] = value;
  }
  for (const std::string &p : def.params)
    if (!frame.vars.count(p))
      fail(loc, DiagKind::ScriptMissingArg, "'" + def.name + "'", p);
  ++depth_;
  Value result;
  try {
    exec_block(def.body, frame);
  } catch (const Return &r) {
    result = r.value;
  } catch (...) {
    --depth_;
    throw;
  }
  --depth_;
  return result;
}

Proc Interpreter::newest(const Proc &p) const {
  Proc cur = p;
  for (auto it = successor_.find(cur.get()); it != successor_.end();
       it = successor_.find(cur.get()))
    cur = it->second;
  return cur;
}

Proc Interpreter::origin(const Proc &p, bool *unsafe) const {
  Proc cur = p;
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto &[name, r] : results_)
      if (r.get() == cur.get() && inputs_.count(name)) {
        for (const Step &s : history_) // the schedule's own steps
          if (unsafe && s.schedule == name && s.primitive.rfind("unsafe_", 0) == 0)
            *unsafe = true;
        cur = inputs_.at(name);
        moved = true;
      }
    for (const Step &s : history_)
      if (s.after.get() == cur.get() && s.before.get() != cur.get()) {
        if (unsafe && s.primitive.rfind("unsafe_", 0) == 0)
          *unsafe = true;
        cur = s.before;
        moved = true;
      }
  }
  return cur;
}

Value Interpreter::call_method(const Value &obj, const std::string &method, SrcLoc loc,
                               std::vector<Value> args, Frame &) {
  if (obj.kind == Value::Kind::Proc) {
    if (method == "find") {
      if (args.size() != 1 || args[0].kind != Value::Kind::Str)
        fail(loc, DiagKind::ScriptArgType, 1, "pattern", "find", "str",
             args.empty() ? "nothing" : args[0].type_name());
      return Value::of_cursor(find_stmt(*this, obj.proc, args[0].str, loc));
    }
    if (method == "name")
      return Value::of_str(obj.proc->name);
    fail(loc, DiagKind::ScriptNoMethod, "a proc", method);
  }
  if (obj.kind == Value::Kind::Cursor)
    return cursor_method(*this, newest(obj.cursor.proc), obj.cursor, method, args, loc);
  fail(loc, DiagKind::ScriptNoMethod, obj.a_type(), method);
}

} // namespace exgc::schedule
