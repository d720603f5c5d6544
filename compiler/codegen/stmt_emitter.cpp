// stmt_emitter.cpp - sequential statements as C++ -------------------------//
#include "compiler/codegen/stmt_emitter.h"

#include <algorithm>

#include "compiler/analysis/control_limits.h"
#include "compiler/analysis/memories.h"
#include "compiler/ir/printer.h"

namespace exgc::codegen {

void Writer::line(const std::string &s) {
  if (s.empty()) {
    os_ << "\n";
    return;
  }
  os_ << std::string(std::max(indent_, 0) * 2, ' ') << s << "\n";
}

void emit_preconditions(const ProcNode &p, ExprEmitter &ex, Writer &w,
                        const std::function<std::string(uint32_t line)> &fail_stmt,
                        const std::string &size_max) {
  for (const Arg &a : p.args) {
    if (a.type.kind != Type::Kind::Control || a.type.scalar == ValueType::Bool)
      continue;
    const CxxBinding *b = ex.env().lookup(a.name);
    if (!b)
      continue;
    // Control arguments within the range the bounds check assumed (control_limits.h).
    std::string max = analysis::max_size_text();
    std::string fail = fail_stmt(std::max<uint32_t>(a.loc.line, 1));
    if (a.type.scalar == ValueType::Size) {
      w.line("if (" + b->expr + " < 1) " + fail);
      w.line("if (" + b->expr + " > " + (size_max.empty() ? max : size_max) + ") " + fail);
    } else {
      w.line("if (" + b->expr + " < -" + max + " || " + b->expr + " > " + max + ") " + fail);
    }
  }
  for (const Expr &e : p.preds)
    w.line("if (!" + paren(ex.ctrl(e)) + ") " + fail_stmt(std::max<uint32_t>(e->loc.line, 1)));
}

void StmtEmitter::block(const Block &b) {
  ex_.env().push();
  for (const Stmt &s : b)
    stmt(s);
  ex_.env().pop();
}

void StmtEmitter::stmt(const Stmt &s) {
  switch (s->kind) {
  case StmtKind::Assign: {
    const auto *a = s.as<Assign>();
    return emit_store(s, a->buf, a->idx, a->rhs, false);
  }
  case StmtKind::Reduce: {
    const auto *r = s.as<Reduce>();
    return emit_store(s, r->buf, r->idx, r->rhs, true);
  }
  case StmtKind::Alloc: return emit_alloc(s.as<Alloc>());
  case StmtKind::WindowStmt: return emit_window(s.as<WindowStmt>());
  case StmtKind::For: return emit_for(s.as<For>());
  case StmtKind::If: return emit_if(s.as<If>());
  case StmtKind::Pass: return;
  case StmtKind::CallStmt: return emit_call(s.as<CallStmt>());
  case StmtKind::With: return emit_with(s.as<With>());
  case StmtKind::Fence:
  case StmtKind::Arrive:
  case StmtKind::Await:
    return emit_sync(s);
  }
  EXGC_UNREACHABLE("statement kind");
}

void StmtEmitter::emit_store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx,
                             const Expr &rhs, bool reduce) {
  const CxxBinding *b = nullptr;
  std::string lhs = ex_.lvalue(buf, idx, s->loc, &b);
  if (lhs.empty() || !b)
    return void(report_failed());
  if (!is_data(b->type))
    return void(fail(s->loc, "assigning the control value '" + buf.name + "'"));
  std::string guard = ex_.take_guard(); // an `out_of_bounds:` parameter: drop the write outside
  std::string r = ex_.data(rhs, b->ctype);
  std::string when = guard.empty() ? "" : "if (" + guard + ") ";
  if (reduce && (b->ctype == "exg_f16" || b->ctype == "exg_bf16")) {
    // The 16-bit float structs have no arithmetic: add in f32 and round once
    // (f32 holds the exact sum's leading 2p + 2 bits, so this is the
    // correctly rounded 16-bit sum, as the GPU's __hadd).
    w_.line(when + lhs + " = " + b->ctype + "(static_cast<float>(" + lhs + ") + static_cast<float>(" + r + "));");
    return;
  }
  if (reduce && is_integer_ctype(b->ctype)) { // wraps, as `+` on integer data does
    w_.line(when + lhs + " = exg_add<" + b->ctype + ">(" + lhs + ", " + r + ");");
    return;
  }
  w_.line(when + lhs + (reduce ? " += " : " = ") + r + ";");
}

void StmtEmitter::host_alloc(const Alloc *a) {
  const Type &t = a->type;
  CxxBinding b;
  b.sym = a->name;
  b.mem = t.mem;
  b.decl_loc = a->loc;
  if (t.kind == Type::Kind::Barrier) {
    b.kind = CxxBinding::Kind::Barrier;
    ex_.env().bind(a->name, b);
    return;
  }
  b.type = t.scalar;
  // In an instruction's body R is the type its arguments have; elsewhere f32's.
  b.ctype = t.scalar == ValueType::R && !ex_.r_ctype.empty() ? ex_.r_ctype
                                                              : ex_.scalar_ctype(t.scalar);
  if (b.ctype.empty())
    return void(fail(t.loc.valid() ? t.loc : a->loc,
                     std::string("element type '") + value_type_name(t.scalar) + "'"));
  std::string name = names_.take(a->name.name);
  if (!t.is_tensor()) {
    w_.line(b.ctype + " " + name + " = " + (ex_.unset_fill ? "exg_unset<" + b.ctype + ">()" : "0") + ";");
    b.expr = name;
    b.writable = true;
    ex_.env().bind(a->name, b);
    return;
  }
  b.kind = CxxBinding::Kind::View;
  b.strides = dense_strides(t.shape, ex_);
  b.dense = true;
  set_extents(b, t.shape, ex_);
  int64_t count = 1;
  bool constant = true;
  std::string cexpr;
  for (const Expr &e : t.shape) {
    int64_t c;
    if (constant && const_int(e, c) && c >= 0 && c < (int64_t(1) << 31) && count < (1 << 20))
      count *= c;
    else
      constant = false;
    cexpr = cexpr.empty() ? paren(ex_.ctrl_wide(e)) : cexpr + " * " + paren(ex_.ctrl_wide(e));
  }
  // Small constant tensors live on the stack; the rest on the heap, so a
  // large local array cannot overflow the stack of the caller's thread.
  if (constant && count > 0 && count * 8 <= 16384) {
    // analysis::starts_aligned (the heap's vectors already are aligned).
    std::string align = analysis::starts_aligned(t.mem)
                            ? "alignas(" + std::to_string(analysis::kAllocAlignBytes) + ") "
                            : "";
    w_.line(align + b.ctype + " " + name + "[" + std::to_string(count) + "] = {};");
    if (ex_.unset_fill)
      w_.line("exg_unset_fill(" + name + ", " + std::to_string(count) + ");");
  } else {
    std::string store = names_.take_internal(c_identifier(a->name.name) + "_storage");
    w_.line("std::vector<" + b.ctype + "> " + store + "(static_cast<size_t>(exg_max<int64_t>(" +
            cexpr + ", 0)));");
    w_.line(b.ctype + " *" + name + " = " + store + ".data();");
    if (ex_.unset_fill)
      w_.line("exg_unset_fill(" + name + ", int64_t(" + store + ".size()));");
  }
  b.expr = name;
  ex_.env().bind(a->name, b);
}

void StmtEmitter::emit_alloc(const Alloc *a) { host_alloc(a); }

void StmtEmitter::emit_window(const WindowStmt *w) {
  CxxBinding v;
  if (!ex_.view_of(w->rhs, v))
    return void(report_failed());
  std::string name = names_.take(w->name.name);
  w_.line(std::string(v.is_const ? "const " : "") + v.ctype + " *" + name + " = " + v.expr + ";");
  v.expr = name;
  v.sym = w->name;
  v.decl_loc = w->loc;
  ex_.env().bind(w->name, v);
}

void StmtEmitter::bind_iterator(const For *f, const std::string &c_name, bool in_device,
                                const std::string &ctype,
                                const std::optional<analysis::IndexRange> &range) {
  ex_.env().push();
  CxxBinding b;
  b.sym = f->iter;
  b.type = ValueType::Index;
  b.ctype = ctype;
  b.range = range;
  b.expr = c_name;
  b.decl_loc = f->loc;
  b.in_device = in_device;
  ex_.env().bind(f->iter, b);
}

void StmtEmitter::seq_for(const For *f, const std::string &pragma) {
  std::string lo = ex_.ctrl(f->lo), hi = ex_.ctrl(f->hi);
  std::optional<analysis::IndexRange> range;
  std::string ctype = ex_.iterator_ctype(f->lo, f->hi, &range);
  std::string it = names_.take(f->iter.name);
  if (!pragma.empty())
    w_.line(pragma);
  w_.open("for (" + ctype + " " + it + " = " + lo + "; " + it + " < " + hi + "; ++" + it + ")");
  bind_iterator(f, it, false, ctype, range);
  block(f->body);
  ex_.env().pop();
  w_.close();
}

void StmtEmitter::emit_if(const If *i) {
  w_.open("if (" + ex_.ctrl(i->cond) + ")");
  block(i->then_body);
  if (!i->else_body.empty()) {
    w_.close("} else {");
    ++w_.indent_;
    block(i->else_body);
  }
  w_.close();
}

void StmtEmitter::emit_call(const CallStmt *c) {
  Proc callee = fx_.callee(&proc_, c->callee);
  if (!callee)
    return void(fail(c->loc, "a call of the unresolved name '" + c->callee + "'"));
  if (callee->is_instr)
    return inline_instr(c, callee);
  proc_call(c, callee);
}

void StmtEmitter::proc_call(const CallStmt *c, const Proc &callee) {
  if (c->args.size() != callee->args.size() || !c->kwargs.empty())
    return void(fail(c->loc, "this call of '" + callee->name + "'"));
  const std::vector<bool> &written = fx_.written(callee.get());
  std::string args;
  auto add = [&](const std::string &a) { args += (args.empty() ? "" : ", ") + a; };
  for (size_t i = 0; i < c->args.size(); ++i) {
    const Type &pt = callee->args[i].type;
    const Expr &e = c->args[i];
    if (pt.kind == Type::Kind::Barrier)
      continue;
    if (pt.kind == Type::Kind::Control) {
      add(ex_.ctrl(e));
      continue;
    }
    std::string ctype = ex_.scalar_ctype(pt.scalar);
    if (ctype.empty())
      return void(fail(pt.loc, std::string("element type '") + value_type_name(pt.scalar) + "'"));
    if (!pt.is_tensor()) {
      if (!written[i]) {
        add(ex_.data(e, ctype));
        continue;
      }
      const Sym *buf = nullptr;
      std::vector<Expr> idx;
      if (const auto *v = e.as<Var>())
        buf = &v->name;
      else if (const auto *r = e.as<Read>())
        buf = &r->buf, idx = r->idx;
      if (!buf)
        return void(fail(e->loc, "passing this expression to the written scalar '" +
                                     callee->args[i].name.name + "'"));
      const CxxBinding *b = nullptr;
      std::string lv = ex_.lvalue(*buf, idx, e->loc, &b);
      if (lv.empty())
        return void(report_failed());
      if (!ex_.take_guard().empty())
        return void(fail(e->loc, "passing an element of an 'out_of_bounds' parameter by pointer"));
      if (b->ctype != ctype)
        return void(fail(e->loc, "passing a '" + b->ctype + "' to the '" + ctype + "' scalar '" +
                                     callee->args[i].name.name + "'"));
      add("&" + lv);
      continue;
    }
    CxxBinding v;
    if (!ex_.view_of(e, v))
      return void(report_failed());
    if (v.guarded)
      return void(fail(e->loc, "passing the 'out_of_bounds' parameter '" + v.sym.name +
                                   "' on to a proc"));
    if (v.rank() != pt.shape.size() || v.ctype != ctype || (written[i] && v.is_const))
      return void(fail(e->loc, "passing this view to '" + callee->args[i].name.name + "'"));
    if (!pt.window && !v.dense)
      return void(fail(e->loc, "passing a strided window to the dense tensor '" +
                                   callee->args[i].name.name + "' (declare it '[" +
                                   value_type_name(pt.scalar) + "][...]')"));
    add(v.expr);
    if (pt.window)
      for (const std::string &s : v.strides)
        add(s);
  }
  std::string prefix = call_prefix();
  if (!args.empty() && !prefix.empty())
    prefix += ", ";
  w_.line(status_check(impl_name(callee.get()) + "(" + prefix + args + ")"));
}

namespace {
bool is_out_of_bounds(const ProcNode &instr, const std::string &name) {
  if (const InstrAttr *a = instr.attr("out_of_bounds"))
    for (const Expr &v : a->values) {
      if (const auto *var = v.as<Var>(); var && var->name.name == name)
        return true;
      if (const auto *r = v.as<Read>(); r && r->idx.empty() && r->buf.name == name)
        return true;
    }
  return false;
}
} // namespace

void StmtEmitter::inline_instr(const CallStmt *c, const Proc &instr) {
  if (std::find(inlining_.begin(), inlining_.end(), instr.get()) != inlining_.end())
    return void(fail(c->loc, "a recursive instruction"));
  // Template parameters come by keyword (docs/language.md, "Calls"), the rest in order.
  std::vector<Expr> bound(instr->args.size());
  size_t next = 0;
  const InstrAttr *tmpl = instr->attr("template");
  auto is_template = [&](const std::string &n) {
    if (!tmpl)
      return false;
    for (const Expr &v : tmpl->values)
      if (const auto *var = v.as<Var>(); var && var->name.name == n)
        return true;
    return false;
  };
  for (const KwArg &k : c->kwargs) {
    const Arg *a = instr->find_arg(k.key);
    if (!a)
      return void(fail(k.loc, "the keyword argument '" + k.key + "'"));
    bound[a - instr->args.data()] = k.value;
  }
  for (size_t i = 0; i < instr->args.size(); ++i) {
    if (bound[i] || is_template(instr->args[i].name.name))
      continue;
    if (next >= c->args.size())
      return void(fail(c->loc, "this call of '" + instr->name + "'"));
    bound[i] = c->args[next++];
  }
  if (next != c->args.size())
    return void(fail(c->loc, "this call of '" + instr->name + "'"));

  const std::vector<bool> &written = fx_.written(instr.get());
  std::vector<CxxBinding> binds;
  std::string r_ctype;
  for (size_t i = 0; i < instr->args.size(); ++i) {
    const Arg &a = instr->args[i];
    const Expr &e = bound[i];
    if (!e)
      return void(fail(c->loc, "a call of '" + instr->name + "' without '" + a.name.name + "'"));
    CxxBinding b;
    b.sym = a.name;
    b.type = a.type.scalar;
    b.decl_loc = a.loc;
    if (a.type.kind == Type::Kind::Barrier) {
      b.kind = CxxBinding::Kind::Barrier;
    } else if (a.type.kind == Type::Kind::Control) {
      ExprEmitter::CtrlValue v = ex_.ctrl_value(e);
      b.ctype = v.narrow ? "int32_t" : ex_.scalar_ctype(a.type.scalar);
      b.expr = paren(v.text);
      b.range = ex_.range(e);
    } else if (a.type.is_tensor()) {
      if (!ex_.view_of(e, b))
        return void(report_failed());
      if (b.rank() != a.type.shape.size())
        return void(fail(e->loc, "passing this view to '" + a.name.name + "'"));
      b.sym = a.name;
      // Reads outside the buffer give 0, writes there are dropped (TMA's meaning).
      if (is_out_of_bounds(*instr, a.name.name))
        b.guarded = true;
    } else {
      std::string own = ex_.data_ctype(e);
      b.ctype = a.type.scalar == ValueType::R ? (own.empty() ? "double" : own)
                                              : ex_.scalar_ctype(a.type.scalar);
      if (written[i]) {
        const Sym *buf = nullptr;
        std::vector<Expr> idx;
        if (const auto *v = e.as<Var>())
          buf = &v->name;
        else if (const auto *r = e.as<Read>())
          buf = &r->buf, idx = r->idx;
        const CxxBinding *src = nullptr;
        b.expr = buf ? ex_.lvalue(*buf, idx, e->loc, &src) : "";
        if (b.expr.empty())
          return void(buf ? report_failed() : fail(e->loc, "passing a value to a written scalar"));
        if (!ex_.take_guard().empty())
          return void(fail(e->loc, "passing an element of an 'out_of_bounds' parameter by pointer"));
        b.ctype = src->ctype;
        b.writable = true;
      } else {
        b.expr = paren(ex_.data(e, b.ctype));
      }
    }
    if (a.type.scalar == ValueType::R && r_ctype.empty())
      r_ctype = b.ctype;
    binds.push_back(b);
  }
  w_.open("");
  w_.line("// " + instr->name + " (instruction behavior)");
  ex_.env().push();
  for (size_t i = 0; i < binds.size(); ++i)
    ex_.env().bind(instr->args[i].name, binds[i]);
  std::string saved_r = ex_.r_ctype;
  ex_.r_ctype = r_ctype.empty() ? "double" : r_ctype;
  inlining_.push_back(instr.get());
  block(instr->body);
  inlining_.pop_back();
  ex_.r_ctype = saved_r;
  ex_.env().pop();
  w_.close();
}

} // namespace exgc::codegen
