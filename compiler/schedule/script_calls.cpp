// script_calls.cpp - calls in schedule scripts: defs, builtins, primitives,
// descriptor constructors and methods ----------------------------------------//
#include <cctype>
#include <cstring>

#include "compiler/analysis/rounding_log.h"
#include "compiler/analysis/solver.h"
#include "compiler/ir/symbols.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"
#include "compiler/support/identifier.h"

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

/// Constants a primitive may put into a bound, extent or index: with them
/// and the sizes a kernel accepts, what a primitive builds stays far from
/// the ends of int64 (the re-check of each result proves the rest).
constexpr int64_t kMaxPrimitiveConstant = int64_t(1) << 32;

/// Reports ScriptConstantRange for an int argument (or an int in a list
/// argument, or a literal in an expression string) outside the range.
void check_constants(Interpreter &in, const Value &v, size_t position, const std::string &param,
                     const std::string &prim, SrcLoc loc) {
  auto out_of_range = [](int64_t x) {
    return x > kMaxPrimitiveConstant || x < -kMaxPrimitiveConstant;
  };
  if (v.kind == Value::Kind::Int && out_of_range(v.int_value))
    in.fail(loc, DiagKind::ScriptConstantRange, position, param, prim, v.int_value);
  if (v.kind == Value::Kind::List)
    for (const Value &item : *v.list)
      check_constants(in, item, position, param, prim, loc);
  if (v.kind == Value::Kind::Str) // "n - 1", "i + 8": the digit runs in it
    for (size_t i = 0; i < v.str.size();) {
      if (!std::isdigit(static_cast<unsigned char>(v.str[i]))) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < v.str.size() && std::isdigit(static_cast<unsigned char>(v.str[j])))
        ++j;
      // Names end in their digits (`k8`) and reals are data, not indices
      // (`2.5e10`): only free-standing integers count.
      auto part_of = [&](size_t k, const char *chars) {
        unsigned char c = static_cast<unsigned char>(v.str[k]);
        return std::isalpha(c) || std::strchr(chars, c);
      };
      bool in_name = (i > 0 && part_of(i - 1, "_.")) || (j < v.str.size() && part_of(j, "_."));
      if (!in_name && (j - i > 10 || out_of_range(std::stoll(v.str.substr(i, j - i)))))
        in.fail(loc, DiagKind::ScriptConstantRange, position, param, prim, v.str.substr(i, j - i));
      i = j;
    }
}

bool kind_matches(ParamKind k, const Value &v) {
  switch (k) {
  case ParamKind::Proc: return v.kind == Value::Kind::Proc;
  case ParamKind::Stmt: return v.kind == Value::Kind::Cursor || v.kind == Value::Kind::Str;
  case ParamKind::Int: return v.kind == Value::Kind::Int;
  case ParamKind::Count: return v.kind == Value::Kind::Int;
  case ParamKind::Bool: return v.kind == Value::Kind::Bool;
  case ParamKind::Str: return v.kind == Value::Kind::Str;
  case ParamKind::Name: return v.kind == Value::Kind::Str;
  case ParamKind::List: return v.kind == Value::Kind::List;
  case ParamKind::Meta: return v.kind == Value::Kind::Meta;
  case ParamKind::Any: return true;
  case ParamKind::Keywords: return v.kind == Value::Kind::List;
  }
  return false;
}

/// What `log` recorded of a step on `before`, as sentences: its own records,
/// and a sentence for each reordered buffer of float data (integer sums wrap,
/// so their order does not matter).
std::vector<analysis::RoundingChange> rounding_changes(const analysis::RoundingLog &log,
                                                       const ProcNode &before) {
  std::vector<analysis::RoundingChange> out = log.records();
  ProcSymbols names(before);
  for (const Sym &buf : log.reordered()) {
    const SymDecl *d = names.find(buf);
    if (d && is_float(d->elem))
      out.push_back({"reorders the " + std::string(value_type_name(d->elem)) + " sums into '" +
                         buf.name + "'",
                     d->elem});
  }
  return out;
}

/// A call's arguments, evaluated: positional, then keyword (with where each
/// keyword was written).
struct CallArgs {
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<SrcLoc> kwlocs;
};

/// A descriptor constructor: CudaDeviceFunction(...), cuda_threads(unit=...).
Value make_descriptor(Interpreter &in, const script::ExprNode &e, const std::string &name,
                      const CallArgs &a) {
  std::vector<Expr> margs;
  std::vector<KwArg> mkw;
  for (size_t i = 0; i < a.args.size(); ++i) {
    Expr x;
    if (!to_meta_expr(a.args[i], e.items[i]->loc, x))
      in.fail(e.items[i]->loc, DiagKind::ScriptArgType, i + 1, "", name,
              "an int, str, list or descriptor", a.args[i].type_name());
    margs.push_back(x);
  }
  for (size_t i = 0; i < a.kwargs.size(); ++i) {
    Expr x;
    if (!to_meta_expr(a.kwargs[i].second, a.kwlocs[i], x))
      in.fail(a.kwlocs[i], DiagKind::ScriptArgType, a.args.size() + i + 1, a.kwargs[i].first, name,
              "an int, str, list or descriptor", a.kwargs[i].second.type_name());
    mkw.push_back({a.kwargs[i].first, x, a.kwlocs[i]});
  }
  Value desc = Value::of_meta(Call::make(name, std::move(margs), std::move(mkw), e.loc));
  for (const Value &v : a.args) // each at most the budget; at most ~2^16 arguments
    desc.weight += v.weight;
  for (const auto &kw : a.kwargs)
    desc.weight += kw.second.weight;
  in.require_value_size(e.loc, "descriptor", desc.weight);
  return desc;
}

/// range(stop) and range(start, stop): the list of ints.
Value range_list(Interpreter &in, const script::ExprNode &e, const std::vector<Value> &args) {
  if (args.empty() || args.size() > 2)
    in.fail(e.loc, DiagKind::ScriptArgCount, "range", 2, args.size());
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind != Value::Kind::Int)
      in.fail(e.items[i]->loc, DiagKind::ScriptArgType, i + 1, i ? "stop" : "start", "range",
              "int", args[i].type_name());
  int64_t lo = args.size() == 2 ? args[0].int_value : 0;
  int64_t hi = args.back().int_value;
  // hi - lo may not be an int64: compare without computing it.
  int64_t size = hi <= lo ? 0 : (lo < 0 && hi > INT64_MAX + lo) ? INT64_MAX : hi - lo;
  in.require_value_size(e.loc, "list", size);
  in.charge(e.loc, size);
  std::vector<Value> items;
  items.reserve(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i)
    items.push_back(Value::of_int(lo + i));
  return Value::of_list(std::move(items));
}

/// The builtin functions (print, same_code, len, str, range); false when
/// `fn` names none of them.
bool call_builtin(Interpreter &in, const std::string &fn, const script::ExprNode &e,
                  const std::vector<Value> &args, Value &out) {
  if (fn == "print") {
    // A nested list or a big proc must not print more than the value budget.
    std::string text;
    size_t limit = static_cast<size_t>(in.budget().values);
    for (size_t i = 0; i < args.size(); ++i) {
      if (i)
        text += " ";
      if (!args[i].append_display(text, limit))
        in.require_value_size(e.loc, "printed text", static_cast<int64_t>(text.size()));
    }
    in.charge(e.loc, 1 + static_cast<int64_t>(text.size()) / 64);
    in.diag().report(e.loc, DiagKind::ScriptPrint, text);
    out = Value::none();
    return true;
  }
  if (fn == "same_code") {
    if (args.size() != 2)
      in.fail(e.loc, DiagKind::ScriptArgCount, "same_code", 2, args.size());
    for (size_t i = 0; i < 2; ++i)
      if (args[i].kind != Value::Kind::Proc)
        in.fail(e.items[i]->loc, DiagKind::ScriptArgType, i + 1, i ? "q" : "p", "same_code",
                "proc", args[i].type_name());
    out = Value::of_bool(same_proc_code(*args[0].proc, *args[1].proc));
    return true;
  }
  if (fn == "len") {
    if (args.size() != 1 || args[0].kind != Value::Kind::List)
      in.fail(e.loc, DiagKind::ScriptArgType, 1, "x", "len", "list",
              args.empty() ? "nothing" : args[0].type_name());
    out = Value::of_int(static_cast<int64_t>(args[0].list->size()));
    return true;
  }
  if (fn == "str") {
    // Decimal digits of an int, so that a def can write the constants of its
    // configuration into the text a primitive takes (windows, declarations).
    if (args.size() != 1 || args[0].kind != Value::Kind::Int)
      in.fail(e.loc, DiagKind::ScriptArgType, 1, "x", "str", "int",
              args.empty() ? "nothing" : args[0].type_name());
    in.charge(e.loc, 1);
    out = Value::of_str(std::to_string(args[0].int_value));
    return true;
  }
  if (fn == "range") {
    out = range_list(in, e, args);
    return true;
  }
  return false;
}

/// A primitive's call site: arguments bound to parameters (positional, by
/// keyword, the rest of the keywords to a Keywords parameter, defaults),
/// each of its parameter's kind; `arg_locs` says where each was written.
CallSite bind_primitive_args(Interpreter &in, const PrimitiveSpec &spec,
                             const script::ExprNode &e, CallArgs a,
                             std::vector<SrcLoc> &arg_locs) {
  const std::string &fn = spec.name;
  CallSite site{e.loc, fn, std::vector<Value>(spec.params.size()), {}};
  for (const Param &param : spec.params)
    site.params.push_back(param.name);
  arg_locs.assign(spec.params.size(), e.loc);
  std::vector<bool> given(spec.params.size(), false);
  // A Keywords parameter (last) takes the keyword arguments no other
  // parameter names, as a list of [name, value] pairs; never a positional one.
  const bool rest = !spec.params.empty() && spec.params.back().kind == ParamKind::Keywords;
  const size_t positional = spec.params.size() - (rest ? 1 : 0);
  if (a.args.size() > positional)
    in.fail(e.loc, DiagKind::ScriptArgCount, fn, positional, a.args.size());
  for (size_t i = 0; i < a.args.size(); ++i) {
    site.args[i] = a.args[i];
    given[i] = true;
    arg_locs[i] = e.items[i]->loc;
  }
  for (size_t k = 0; k < a.kwargs.size(); ++k) {
    size_t i = 0;
    while (i < spec.params.size() && a.kwargs[k].first != spec.params[i].name)
      ++i;
    if (i == spec.params.size() && rest) {
      const size_t r = spec.params.size() - 1;
      std::vector<Value> items = given[r] ? *site.args[r].list : std::vector<Value>{};
      items.push_back(Value::of_list({Value::of_str(a.kwargs[k].first), a.kwargs[k].second}));
      site.args[r] = Value::of_list(std::move(items));
      given[r] = true;
      arg_locs[r] = a.kwlocs[k];
      continue;
    }
    if (i == spec.params.size() || spec.params[i].kind == ParamKind::Keywords)
      in.fail(a.kwlocs[k], DiagKind::ScriptUnknownKeyword, fn, a.kwargs[k].first);
    if (given[i])
      in.fail(a.kwlocs[k], DiagKind::ScriptDuplicateArg, fn, a.kwargs[k].first);
    site.args[i] = a.kwargs[k].second;
    given[i] = true;
    arg_locs[i] = a.kwlocs[k];
  }
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const Param &param = spec.params[i];
    if (!given[i]) {
      if (param.required())
        in.fail(e.loc, DiagKind::ScriptMissingArg, fn, param.name);
      site.args[i] = param.fallback.value();
      continue;
    }
    if (!kind_matches(param.kind, site.args[i]))
      in.fail(arg_locs[i], DiagKind::ScriptArgType, i + 1, param.name, fn,
              param_kind_name(param.kind), site.args[i].type_name());
    if (param.kind == ParamKind::Count && site.args[i].int_value < 1)
      in.fail(arg_locs[i], DiagKind::ScriptArgType, i + 1, param.name, fn,
              param_kind_name(param.kind), std::to_string(site.args[i].int_value));
    if (param.kind == ParamKind::Name && !is_exg_name(site.args[i].str))
      in.fail(arg_locs[i], DiagKind::ScriptArgType, i + 1, param.name, fn,
              param_kind_name(param.kind), "'" + site.args[i].str + "'");
  }
  return site;
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
  CallArgs a;
  for (const script::Expr &x : e.items)
    a.args.push_back(eval(x, f));
  for (const script::KwArg &k : e.kwargs) {
    a.kwargs.push_back({k.key, eval(k.value, f)});
    a.kwlocs.push_back(k.loc);
  }
  if (callee.kind == Value::Kind::Meta) {
    const auto *name = callee.meta.as<Var>();
    if (!name)
      fail(e.loc, DiagKind::ScriptNotCallable, "'" + print_expr(callee.meta) + "'");
    return make_descriptor(*this, e, name->name.name, a);
  }
  if (callee.kind != Value::Kind::Func)
    fail(e.loc, DiagKind::ScriptNotCallable, callee.a_type());
  if (callee.def)
    return call_def(*callee.def, e.loc, std::move(a.args), std::move(a.kwargs), f.module);
  const std::string &fn = callee.str;
  Value out;
  if (call_builtin(*this, fn, e, a.args, out))
    return out;
  const PrimitiveSpec *spec = find_primitive(fn);
  EXGC_CHECK(spec) << "function value without a definition: " << fn;
  std::vector<SrcLoc> arg_locs; // where argument i was written, for its errors
  CallSite site = bind_primitive_args(*this, *spec, e, std::move(a), arg_locs);
  return run_primitive(*spec, e.loc, site, arg_locs);
}

Value Interpreter::run_primitive(const PrimitiveSpec &spec, SrcLoc loc, CallSite &site,
                                 const std::vector<SrcLoc> &arg_locs) {
  for (size_t i = 0; i < spec.params.size(); ++i)
    check_constants(*this, site.args[i], i + 1, spec.params[i].name, spec.name, arg_locs[i]);
  // A solver query costs far more than a statement: charge it as it is
  // asked, so that the step budget bounds a script's time, and stops a
  // primitive in the middle of quadratic work rather than after it.
  Value out;
  analysis::RoundingLog rounding;
  {
    analysis::QueryMeter meter(
        [&](bool cached) { charge(loc, cached ? kStepsPerCachedQuery : kStepsPerSolverQuery); });
    out = spec.fn(*this, site);
  }
  if (out.kind == Value::Kind::Proc && !spec.params.empty() &&
      spec.params[0].kind == ParamKind::Proc)
    record_step(spec.name, loc, site.args[0].proc, out.proc,
                rounding_changes(rounding, *site.args[0].proc));
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
  size_t reported = diag_.diagnostics().size();
  try {
    exec_block(def.body, frame);
  } catch (const Return &r) {
    result = r.value;
  } catch (const ScriptAbort &) {
    --depth_;
    // An error inside a def names the line of the def; say which call ran it
    // (each enclosing call adds its line, innermost first).
    if (diag_.diagnostics().size() > reported)
      diag_.at(diag_.diagnostics().size() - 1)
          .notes.push_back({loc, "in the call of '" + def.name + "' here"});
    throw;
  } catch (...) {
    --depth_;
    throw;
  }
  --depth_;
  return result;
}

std::vector<const Interpreter::Step *> Interpreter::rounding_steps(const Proc &p) const {
  std::vector<const Step *> out;
  for (const auto &[proc, step] : lineage(p))
    if (step && !step->rounding.empty())
      out.push_back(step);
  return out;
}

Proc Interpreter::origin(const Proc &p, bool *unsafe) const {
  std::vector<std::pair<Proc, const Step *>> chain = lineage(p);
  for (const auto &[proc, step] : chain)
    if (unsafe && step && is_unsafe_primitive(step->primitive))
      *unsafe = true;
  return chain.back().first;
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
    if (method == "forward") {
      // The reference's p.forward(c): c as a cursor on this proc, so that
      // navigation from here on is done in it (docs/scheduling.md).
      if (args.size() != 1 || args[0].kind != Value::Kind::Cursor)
        fail(loc, DiagKind::ScriptArgType, 1, "cursor", "forward", "a cursor",
             args.empty() ? "nothing" : args[0].a_type());
      return Value::of_cursor(forward_cursor(*this, obj.proc, args[0].cursor, loc));
    }
    if (method == "name")
      return Value::of_str(obj.proc->name);
    fail(loc, DiagKind::ScriptNoMethod, "a proc", method);
  }
  if (obj.kind == Value::Kind::Cursor)
    return cursor_method(*this, obj.cursor, method, args, loc);
  fail(loc, DiagKind::ScriptNoMethod, obj.a_type(), method);
}

} // namespace exgc::schedule
