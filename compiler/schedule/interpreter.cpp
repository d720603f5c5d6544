// interpreter.cpp - statements, names and calls of schedule scripts ----------//
#include "compiler/schedule/interpreter.h"

#include "compiler/analysis/gpu_names.h"
#include "compiler/analysis/memories.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/primitives.h"

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

void Interpreter::step(SrcLoc loc) {
  if (++steps_ > kMaxSteps)
    fail(loc, DiagKind::ScriptStepLimit, kMaxSteps);
}

bool Interpreter::run_all() {
  const LoadedModule &main = *program_.modules.front();
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
  }
  return ok;
}

Proc Interpreter::result(const std::string &name) const {
  auto it = results_.find(name);
  return it == results_.end() ? nullptr : it->second;
}

Proc Interpreter::start_proc(const ScheduleDecl &decl, const LoadedModule &module) {
  // A schedule may start from another schedule's result: run that one first.
  for (const Decl &d : module.module.decls) {
    const auto *s = std::get_if<ScheduleDecl>(&d);
    if (!s || s->name != decl.from)
      continue;
    if (results_.count(s->name))
      return results_[s->name];
    if (state_[s->name] == 1)
      fail(decl.from_loc, DiagKind::ScheduleCycle, decl.name, decl.from);
    return run_one(*s, module);
  }
  // load_program already reported names that are neither procs nor schedules.
  Proc p = program_.lookup(module, decl.from);
  EXGC_CHECK(p) << "schedule " << decl.name << " starts from unknown " << decl.from;
  if (p->is_instr)
    fail(decl.from_loc, DiagKind::ScheduleFromInstr, decl.from);
  return p;
}

Proc Interpreter::run_one(const ScheduleDecl &decl, const LoadedModule &module) {
  state_[decl.name] = 1;
  Frame frame{{}, &module};
  Proc start = start_proc(decl, module);
  inputs_[decl.name] = start;
  frame.vars["p"] = Value::of_proc(start);
  std::string outer = current_; // a dependency runs inside another schedule's start
  current_ = decl.name;
  Value result;
  try {
    exec_block(decl.body, frame);
    result = frame.vars["p"];
  } catch (const Return &r) {
    result = r.value;
  }
  current_ = outer;
  if (result.kind != Value::Kind::Proc)
    fail(decl.loc, DiagKind::ScriptResultNotProc, decl.name, result.a_type());
  auto named = std::make_shared<ProcNode>(*result.proc);
  named->name = decl.name;
  named->loc = decl.loc;
  results_[decl.name] = named;
  state_[decl.name] = 2;
  return named;
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

Value Interpreter::lookup(const std::string &name, SrcLoc loc, Frame &f) {
  auto it = f.vars.find(name);
  if (it != f.vars.end())
    return it->second;
  for (const Decl &d : f.module->module.decls)
    if (const auto *def = std::get_if<DefDecl>(&d); def && def->name == name)
      return Value::of_func(name, def);
  if (Proc p = program_.lookup(*f.module, name))
    return Value::of_proc(p);
  if (results_.count(name))
    return Value::of_proc(results_[name]);
  if (find_primitive(name) || name == "range" || name == "len" || name == "print")
    return Value::of_func(name, nullptr);
  if (name == "True" || name == "False")
    return Value::of_bool(name == "True");
  if (is_descriptor_name(name))
    return Value::of_meta(Var::make(Sym::global(name), ValueType::Meta, loc));
  fail(loc, DiagKind::ScriptUnknownName, name);
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
    for (const script::Expr &i : e->items)
      items.push_back(eval(i, f));
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
    if (a.kind == Value::Kind::Int)
      return Value::of_int(-a.int_value);
    fail(e->loc, DiagKind::ScriptBadOperand, e->text, a.type_name());
  }
  }
  EXGC_UNREACHABLE("script expr kind");
}

} // namespace exgc::schedule
