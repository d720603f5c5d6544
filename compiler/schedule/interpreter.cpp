// interpreter.cpp - statements, names and calls of schedule scripts ----------//
#include "compiler/schedule/interpreter.h"

#include <charconv>

#include "compiler/analysis/gpu_names.h"
#include "compiler/analysis/memories.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/printable.h"
#include "compiler/support/cancel.h"
#include "compiler/support/did_you_mean.h"

namespace exgc::schedule {
namespace {

/// Names that stand for descriptors: memories, units, loop modes, contexts,
/// timelines, and the helper constructors of the GPU annotations.
bool is_descriptor_name(const std::string &n) {
  using namespace exgc::analysis;
  return find_memory(n) || is_unit_name(n) || unit_function_arity(n) >= 0 || is_loop_mode(n) ||
         is_context(n) || is_sync_timeline(n) || is_instr_timeline(n) || n == "warp_role" ||
         n == "ring";
}

} // namespace

void Interpreter::step(SrcLoc loc) { charge(loc, 1); }

void Interpreter::charge(SrcLoc loc, int64_t n) {
  throw_if_cancelled(budget_.cancel);
  // Saturates: a charge past the budget is refused, whatever its size.
  steps_ = n > budget_.steps - steps_ ? budget_.steps + 1 : steps_ + n;
  if (steps_ > budget_.steps)
    fail(loc, DiagKind::ScriptStepLimit, budget_.steps);
}

void Interpreter::require_value_size(SrcLoc loc, const char *what, int64_t size) {
  if (size > budget_.values)
    fail(loc, DiagKind::ScriptValueBudget, what, size,
         std::string(what) == "string" || std::string(what) == "printed text" ? "characters"
                                                                               : "elements",
         budget_.values);
}

void Interpreter::require_proc_size(SrcLoc loc, const std::string &name, int64_t stmts) {
  if (stmts > budget_.stmts)
    fail(loc, DiagKind::ScriptProcBudget, name, stmts, budget_.stmts);
}

int64_t count_stmts(const Block &b) {
  int64_t n = 0;
  for (const Stmt &s : b) {
    ++n;
    for (const Block *child : child_blocks(s))
      n += count_stmts(*child);
  }
  return n;
}

void Interpreter::record_step(const std::string &primitive, SrcLoc loc, const Proc &before,
                              const Proc &after, std::vector<analysis::RoundingChange> rounding) {
  // Counted once per proc (history_ keeps every proc alive, so addresses
  // are not reused). An unchanged result counts too: the history budget also
  // bounds the work of steps, which walk the whole proc.
  auto known = stmt_counts_.find(after.get());
  int64_t n = known != stmt_counts_.end() ? known->second : count_stmts(after->body);
  stmt_counts_[after.get()] = n;
  require_proc_size(loc, after->name, n);
  history_stmts_ += n;
  if (history_stmts_ > budget_.history)
    fail(loc, DiagKind::ScriptHistoryBudget, history_stmts_, budget_.history);
  // Unchanged: the input is not made from itself.
  if (after.get() != before.get()) {
    if (std::string problem = print_problem(*after); !problem.empty())
      fail(loc, DiagKind::StepNotPrintable, after->name, problem);
    record_derivation(after, before, history_.size());
  }
  if (after.get() == before.get())
    rounding.clear();
  history_.push_back({current_, primitive, loc, before, after, std::move(rounding)});
}

void Interpreter::record_derivation(const Proc &made, const Proc &from, size_t step) {
  auto known = derived_.find(from.get());
  const ProcNode *root = known != derived_.end() ? known->second.root : from.get();
  // Only the root of from's lineage has none of its own; making it from
  // `from` would close a cycle.
  if (made.get() != root)
    derived_.emplace(made.get(), Derivation{from, step, root});
}

std::vector<std::pair<Proc, const Interpreter::Step *>> Interpreter::lineage(const Proc &p) const {
  std::vector<std::pair<Proc, const Step *>> out;
  Proc cur = p;
  // record_derivation keeps the lineage acyclic; the bound makes that a
  // guarantee of this loop too.
  for (size_t hops = 0; hops <= derived_.size(); ++hops) {
    auto d = derived_.find(cur.get());
    if (d == derived_.end()) {
      out.push_back({cur, nullptr});
      break;
    }
    out.push_back({cur, d->second.step == kNoStep ? nullptr : &history_[d->second.step]});
    cur = d->second.from;
  }
  return out;
}

bool Interpreter::run_all() {
  const LoadedModule &main = *program_.modules.front();
  // Evaluated first, so a bad -D value is reported once, whatever uses it.
  try {
    module_values(main);
  } catch (const ScriptAbort &) {
    return false;
  }
  steps_ = 0;
  bool ok = true;
  for (const Decl &d : main.module.decls) {
    const auto *s = std::get_if<ScheduleDecl>(&d);
    if (!s || state_.count(s->name)) // done, or failed as another's dependency
      continue;
    try {
      run_one(*s, main);
    } catch (const ScriptAbort &) {
      ok = false;
    }
    current_.clear();
    depth_ = 0;
    steps_ = 0;
  }
  return ok;
}

Proc Interpreter::result(const std::string &name) const {
  auto it = results_.find(name);
  return it == results_.end() ? nullptr : it->second;
}

Proc Interpreter::schedule_result(const std::string &name, SrcLoc loc,
                                   const LoadedModule &module, bool starts_from) {
  for (const Decl &d : module.module.decls) {
    const auto *s = std::get_if<ScheduleDecl>(&d);
    if (!s || s->name != name)
      continue;
    auto state = state_.find(name);
    if (state == state_.end()) {
      try {
        return run_one(*s, module);
      } catch (const ScriptAbort &) {
        state = state_.find(name);
      }
    }
    switch (state->second) {
    case RunState::Done: return results_.at(name);
    case RunState::Running:
      if (starts_from)
        fail(loc, DiagKind::ScheduleCycle, current_, name);
      fail(loc, DiagKind::ScheduleResultInCycle, current_, name);
    // Its error is reported already; an error here would only blame this
    // schedule for it a second time: a note says why this one stops.
    case RunState::Failed:
      diag_.report(loc, DiagKind::ScheduleNotRun, current_, name);
      throw ScriptAbort{};
    }
  }
  return nullptr;
}

Proc Interpreter::start_proc(const ScheduleDecl &decl, const LoadedModule &module) {
  // A schedule may start from another schedule's result: run that one first.
  if (Proc r = schedule_result(decl.from, decl.from_loc, module, true))
    return r;
  // load_program already reported names that are neither procs nor schedules.
  Proc p = program_.lookup(module, decl.from);
  EXGC_CHECK(p) << "schedule " << decl.name << " starts from unknown " << decl.from;
  if (p->is_instr)
    fail(decl.from_loc, DiagKind::ScheduleFromInstr, decl.from);
  return p;
}

Proc Interpreter::run_one(const ScheduleDecl &decl, const LoadedModule &module) {
  state_[decl.name] = RunState::Running;
  // A dependency runs inside another schedule's script: it starts at depth 0
  // and hands the outer one back its name.
  std::string outer = current_;
  int outer_depth = depth_;
  int64_t outer_steps = steps_; // the step budget is per script
  current_ = decl.name;
  depth_ = 0;
  steps_ = 0;
  try {
    Frame frame{{}, &module};
    Proc start = start_proc(decl, module);
    inputs_[decl.name] = start;
    frame.vars["p"] = Value::of_proc(start);
    Value result;
    try {
      exec_block(decl.body, frame);
      result = frame.vars["p"];
    } catch (const Return &r) {
      result = r.value;
    }
    if (result.kind != Value::Kind::Proc)
      fail(decl.loc, DiagKind::ScriptResultNotProc, decl.name, result.a_type());
    auto named = std::make_shared<ProcNode>(*result.proc);
    named->name = decl.name;
    named->loc = decl.loc;
    record_derivation(named, result.proc, kNoStep);
    results_[decl.name] = named;
    state_[decl.name] = RunState::Done;
    current_ = outer;
    depth_ = outer_depth;
    steps_ = outer_steps;
    return named;
  } catch (const ScriptAbort &) {
    state_[decl.name] = RunState::Failed;
    current_ = outer;
    depth_ = outer_depth;
    steps_ = outer_steps;
    throw;
  }
}

void Interpreter::exec_block(const script::Block &b, Frame &f) {
  for (const script::Stmt &s : b)
    exec(s, f);
}

void Interpreter::exec(const script::Stmt &s, Frame &f) {
  step(s->loc);
  switch (s->kind) {
  case script::StmtKind::Assign: f.vars[s->target] = eval(s->value, f); return;
  case script::StmtKind::ExprStmt: eval(s->value, f); return;
  case script::StmtKind::If:
    exec_block(eval(s->value, f).truthy() ? s->body : s->orelse, f);
    return;
  case script::StmtKind::For: {
    Value seq = eval(s->value, f);
    if (seq.kind != Value::Kind::List)
      fail(s->value->loc, DiagKind::ScriptBadOperand, "for ... in", seq.type_name());
    auto items = seq.list; // keep alive while the body reassigns variables
    for (const Value &v : *items) {
      f.vars[s->target] = v;
      exec_block(s->body, f);
    }
    return;
  }
  case script::StmtKind::Return: throw Return{s->value ? eval(s->value, f) : Value::none()};
  case script::StmtKind::Pass: return;
  }
}

const std::map<std::string, Value> &Interpreter::module_values(const LoadedModule &module) {
  auto [values, first_use] = values_.try_emplace(&module);
  if (!first_use) // evaluated, or being evaluated (a value names the ones above it)
    return values->second;
  bool main = &module == program_.modules.front().get();
  for (const Decl &d : module.module.decls) {
    const auto *v = std::get_if<ValueDecl>(&d);
    if (!v)
      continue;
    Frame frame{{}, &module};
    Value value = eval(v->value, frame);
    auto text = overrides_.find(v->name);
    if (main && text != overrides_.end())
      value = overridden_value(*v, value, text->second);
    values->second[v->name] = value;
  }
  return values->second;
}

Value Interpreter::overridden_value(const ValueDecl &d, const Value &default_value,
                                    const std::string &text) {
  std::string option = "-D " + d.name + "=" + text;
  switch (default_value.kind) {
  case Value::Kind::Int: {
    int64_t v = 0;
    const char *end = text.data() + text.size();
    auto [stop, ec] = std::from_chars(text.data() + (text[0] == '+'), end, v);
    if (text.empty() || ec != std::errc() || stop != end)
      fail(d.loc, DiagKind::BadValueOverride, option, d.name, "an integer",
           "a decimal integer that fits in 64 bits");
    return Value::of_int(v);
  }
  case Value::Kind::Bool:
    if (text == "True" || text == "true" || text == "1")
      return Value::of_bool(true);
    if (text == "False" || text == "false" || text == "0")
      return Value::of_bool(false);
    fail(d.loc, DiagKind::BadValueOverride, option, d.name, "True or False",
         "True, False, true, false, 1 or 0");
  case Value::Kind::Str:
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
      return Value::of_str(text.substr(1, text.size() - 2));
    return Value::of_str(text);
  default:
    fail(d.loc, DiagKind::ValueNotOverridable, option, d.name, default_value.a_type());
  }
}

Value Interpreter::lookup(const std::string &name, SrcLoc loc, Frame &f) {
  auto it = f.vars.find(name);
  if (it != f.vars.end())
    return it->second;
  const std::map<std::string, Value> &values = module_values(*f.module);
  if (auto v = values.find(name); v != values.end())
    return v->second;
  for (const Decl &d : f.module->module.decls)
    if (const auto *def = std::get_if<DefDecl>(&d); def && def->name == name)
      return Value::of_func(name, def);
  if (Proc p = program_.lookup(*f.module, name))
    return Value::of_proc(p);
  // A schedule's result, also one declared further down (it runs now).
  if (Proc r = schedule_result(name, loc, *f.module, false))
    return Value::of_proc(r);
  if (find_primitive(name) || name == "range" || name == "len" || name == "str" ||
      name == "print" ||
      name == "same_code")
    return Value::of_func(name, nullptr);
  if (name == "True" || name == "False")
    return Value::of_bool(name == "True");
  if (is_descriptor_name(name))
    return Value::of_meta(Var::make(Sym::global(name), ValueType::Meta, loc));
  fail(loc, DiagKind::ScriptUnknownName, name, did_you_mean(name, known_names(f)));
}

std::vector<std::string> Interpreter::known_names(const Frame &f) const {
  std::vector<std::string> out = {"range", "len", "str", "print", "same_code", "True", "False"};
  for (const auto &[name, value] : f.vars)
    out.push_back(name);
  for (const PrimitiveSpec &p : all_primitives())
    out.push_back(p.name);
  for (const Decl &d : f.module->module.decls) {
    if (const auto *def = std::get_if<DefDecl>(&d))
      out.push_back(def->name);
    else if (const Proc *p = std::get_if<Proc>(&d))
      out.push_back((*p)->name);
    else if (const auto *s = std::get_if<ScheduleDecl>(&d))
      out.push_back(s->name);
  }
  return out;
}

Value Interpreter::eval(const script::Expr &e, Frame &f) {
  using script::ExprKind;
  step(e->loc);
  switch (e->kind) {
  case ExprKind::Name: return lookup(e->text, e->loc, f);
  case ExprKind::Int: return Value::of_int(e->int_value);
  case ExprKind::Str: return Value::of_str(e->text);
  case ExprKind::Bool: return Value::of_bool(e->int_value != 0);
  case ExprKind::List: {
    std::vector<Value> items;
    int64_t size = 0;
    for (const script::Expr &i : e->items) {
      items.push_back(eval(i, f));
      size += items.back().weight;
      require_value_size(e->loc, "list", size);
    }
    return Value::of_list(std::move(items));
  }
  case ExprKind::Call: return eval_call(*e, f);
  case ExprKind::Attr: {
    // A method used without a call: only meaningful when called.
    Value obj = eval(e->callee, f);
    fail(e->loc, DiagKind::ScriptNoMethod, obj.a_type(), e->text);
  }
  case ExprKind::Index: return eval_index(*e, f);
  case ExprKind::Slice: fail(e->loc, DiagKind::ScriptBadOperand, ":", "this position");
  case ExprKind::BinOp: return eval_binop(*e, f);
  case ExprKind::UnOp: {
    Value a = eval(e->items[0], f);
    if (e->text == "not")
      return Value::of_bool(!a.truthy());
    if (a.kind == Value::Kind::Int) {
      if (a.int_value == INT64_MIN)
        fail(e->loc, DiagKind::ScriptIntOverflow, "-(" + std::to_string(a.int_value) + ")");
      return Value::of_int(-a.int_value);
    }
    fail(e->loc, DiagKind::ScriptBadOperand, e->text, a.type_name());
  }
  }
  EXGC_UNREACHABLE("script expr kind");
}

} // namespace exgc::schedule
