// nodes.cpp - checked constructors of the IR nodes ------------------------//
#include "compiler/ir/nodes.h"
#include "compiler/ir/math_functions.h"
#include "compiler/support/name_table.h"

#include <atomic>

namespace exgc {

NodeId fresh_node_id() {
  static std::atomic<NodeId> next{1};
  return next++;
}

Sym Sym::fresh(std::string name) {
  static std::atomic<uint32_t> next{1};
  return Sym{std::move(name), next++};
}

bool is_control(ValueType t) {
  return t == ValueType::Int || t == ValueType::Size || t == ValueType::Index ||
         t == ValueType::Bool;
}

bool is_data(ValueType t) {
  switch (t) {
  case ValueType::F16: case ValueType::BF16: case ValueType::F32: case ValueType::F64:
  case ValueType::I8: case ValueType::U8: case ValueType::U16: case ValueType::I32:
  case ValueType::E4M3: case ValueType::E5M2: case ValueType::R:
    return true;
  default:
    return false;
  }
}

bool is_float(ValueType t) {
  switch (t) {
  case ValueType::F16: case ValueType::BF16: case ValueType::F32: case ValueType::F64:
  case ValueType::E4M3: case ValueType::E5M2: case ValueType::R:
    return true;
  default:
    return false;
  }
}

int64_t element_bytes(ValueType t) {
  switch (t) {
  case ValueType::F64: case ValueType::Int: case ValueType::Size: case ValueType::Index: return 8;
  case ValueType::F32: case ValueType::I32: return 4;
  case ValueType::U16: case ValueType::F16: case ValueType::BF16: return 2;
  default: return 1;
  }
}

namespace {
struct TypeName {
  ValueType type;
  const char *name;
};
const TypeName kTypeNames[] = {
    {ValueType::Int, "int"},   {ValueType::Size, "size"},   {ValueType::Index, "index"},
    {ValueType::Bool, "bool"}, {ValueType::F16, "f16"},     {ValueType::BF16, "bf16"},
    {ValueType::F32, "f32"},   {ValueType::F64, "f64"},     {ValueType::I8, "i8"},
    {ValueType::U8, "u8"},     {ValueType::U16, "u16"},     {ValueType::I32, "i32"},
    {ValueType::E4M3, "e4m3"}, {ValueType::E5M2, "e5m2"},   {ValueType::R, "R"},
    {ValueType::Str, "str"},   {ValueType::Meta, "meta"},
};
} // namespace

const char *value_type_name(ValueType t) {
  for (const TypeName &n : kTypeNames)
    if (n.type == t)
      return n.name;
  return "?";
}

bool parse_value_type(const std::string &s, ValueType &out) {
  for (const TypeName &n : kTypeNames) {
    if (n.type == ValueType::Int || n.type == ValueType::Str || n.type == ValueType::Meta)
      continue;
    if (s == n.name) {
      out = n.type;
      return true;
    }
  }
  return false;
}

bool same_block(const Block &a, const Block &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].same_as(b[i]))
      return false;
  return true;
}

// --- Types -------------------------------------------------------------------

Type Type::control(ValueType t, SrcLoc loc) {
  EXGC_CHECK(is_control(t)) << value_type_name(t);
  Type ty;
  ty.kind = Kind::Control;
  ty.scalar = t;
  ty.loc = loc;
  return ty;
}

Type Type::data(ValueType t, std::vector<Expr> shape, Expr mem, bool window, SrcLoc loc) {
  EXGC_CHECK(is_data(t)) << value_type_name(t);
  Type ty;
  ty.kind = Kind::Data;
  ty.scalar = t;
  ty.shape = std::move(shape);
  ty.mem = std::move(mem);
  ty.window = window;
  ty.loc = loc;
  return ty;
}

Type Type::barrier(std::vector<Expr> shape, std::vector<Expr> ring, Expr mem, SrcLoc loc) {
  EXGC_CHECK(ring.empty() || ring.size() == shape.size()) << "one ring entry per dimension";
  Type ty;
  ty.kind = Kind::Barrier;
  ty.scalar = ValueType::Meta;
  ty.shape = std::move(shape);
  ty.ring = std::move(ring);
  if (ty.ring.empty())
    ty.ring.resize(ty.shape.size());
  ty.mem = std::move(mem);
  ty.loc = loc;
  return ty;
}

// --- Expressions -------------------------------------------------------------
// Each make() allocates through build(), which runs the node's finish(): the
// checks, and the derived type. edited() runs the same finish() on a copy.

Expr IntImm::make(int64_t v, SrcLoc loc) { return build(new IntImm(v, loc)); }
Expr FloatImm::make(double v, SrcLoc loc) { return build(new FloatImm(v, loc)); }
Expr BoolImm::make(bool v, SrcLoc loc) { return build(new BoolImm(v, loc)); }
Expr StrImm::make(std::string v, SrcLoc loc) { return build(new StrImm(std::move(v), loc)); }

Expr Var::make(Sym name, ValueType type, SrcLoc loc) {
  return build(new Var(std::move(name), type, loc));
}
void Var::finish() { EXGC_CHECK(!name.name.empty()) << "a variable needs a name"; }

Expr Read::make(Sym buf, std::vector<Expr> idx, ValueType type, SrcLoc loc) {
  return build(new Read(std::move(buf), std::move(idx), type, loc));
}
void Read::finish() {
  for (const Expr &e : idx)
    EXGC_CHECK(e) << "null index of " << buf.name;
}

const Sym *named_buffer(const Expr &e) {
  if (const auto *v = e.as<Var>())
    return &v->name;
  if (const auto *r = e.as<Read>())
    return &r->buf;
  if (const auto *w = e.as<WindowExpr>())
    return &w->buf;
  return nullptr;
}

Expr WindowExpr::make(Sym buf, std::vector<WindowIdx> idx, ValueType type, SrcLoc loc) {
  return build(new WindowExpr(std::move(buf), std::move(idx), type, loc));
}
void WindowExpr::finish() {
  for (const WindowIdx &w : idx)
    EXGC_CHECK(w.is_slice || w.lo) << "a point of a window needs an index";
}

size_t WindowExpr::rank() const {
  size_t n = 0;
  for (const WindowIdx &w : idx)
    n += w.is_slice;
  return n;
}

const char *binop_spelling(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: return "+";
  case BinOpKind::Sub: return "-";
  case BinOpKind::Mul: return "*";
  case BinOpKind::Div: return "/";
  case BinOpKind::Mod: return "%";
  case BinOpKind::Lt: return "<";
  case BinOpKind::Le: return "<=";
  case BinOpKind::Gt: return ">";
  case BinOpKind::Ge: return ">=";
  case BinOpKind::Eq: return "==";
  case BinOpKind::Ne: return "!=";
  case BinOpKind::And: return "and";
  case BinOpKind::Or: return "or";
  }
  EXGC_UNREACHABLE("binop kind");
}

int binop_precedence(BinOpKind op) {
  switch (op) {
  case BinOpKind::Or: return 1;
  case BinOpKind::And: return 2;
  case BinOpKind::Lt: case BinOpKind::Le: case BinOpKind::Gt: case BinOpKind::Ge:
  case BinOpKind::Eq: case BinOpKind::Ne:
    return 4;
  case BinOpKind::Add: case BinOpKind::Sub: return 5;
  case BinOpKind::Mul: case BinOpKind::Div: case BinOpKind::Mod: return 6;
  }
  EXGC_UNREACHABLE("binop kind");
}

bool is_comparison(BinOpKind op) { return binop_precedence(op) == 4; }

namespace {
/// Size < Index: mixing a size and an index gives an index; Int adapts.
ValueType join_control(ValueType a, ValueType b) {
  if (a == ValueType::Int)
    return b;
  if (b == ValueType::Int)
    return a;
  if (a == ValueType::Index || b == ValueType::Index)
    return ValueType::Index;
  return a;
}

/// The type of `a op b` for an arithmetic op: the data type when either side
/// is data (R adapts to the other side), else the wider control type.
ValueType arith_type(ValueType a, ValueType b) {
  if (is_data(a))
    return a == ValueType::R && is_data(b) ? b : a;
  if (is_data(b))
    return b;
  if (is_control(a) && is_control(b))
    return join_control(a, b);
  return ValueType::Meta; // descriptors: `8 * cuda_thread`
}
} // namespace

Expr BinOp::make(BinOpKind op, Expr a, Expr b, SrcLoc loc) {
  return build(new BinOp(op, std::move(a), std::move(b), loc));
}
void BinOp::finish() {
  EXGC_CHECK(a && b) << "null operand of " << binop_spelling(op);
  bool logical = is_comparison(op) || op == BinOpKind::And || op == BinOpKind::Or;
  type = logical ? ValueType::Bool : arith_type(a->type, b->type);
}

Expr UnOp::make(UnOpKind op, Expr a, SrcLoc loc) {
  return build(new UnOp(op, std::move(a), loc));
}
void UnOp::finish() {
  EXGC_CHECK(a) << "null operand";
  type = op == UnOpKind::Not ? ValueType::Bool : a->type;
}

namespace {
/// A math function computes in the join of its operands' types; control
/// operands alone (`exp(i)`) give R, as a literal's value does.
ValueType math_result_type(const std::vector<Expr> &args) {
  ValueType t = args[0] ? args[0]->type : ValueType::Meta;
  for (size_t i = 1; i < args.size(); ++i)
    t = args[i] ? arith_type(t, args[i]->type) : ValueType::Meta;
  return is_control(t) && t != ValueType::Bool ? ValueType::R : t;
}
} // namespace

Expr Call::make(std::string func, std::vector<Expr> args, std::vector<KwArg> kwargs,
                SrcLoc loc) {
  return build(new Call(std::move(func), std::move(args), std::move(kwargs), loc));
}
void Call::finish() {
  EXGC_CHECK(!func.empty()) << "a call needs a function name";
  auto join = [&](size_t i, size_t j) {
    return args.size() > j && args[i] && args[j] ? arith_type(args[i]->type, args[j]->type)
                                                 : ValueType::Meta;
  };
  if (func == "stride" || func == "offset")
    type = ValueType::Index;
  else if (func == "aligned")
    type = ValueType::Bool;
  else if (func == "min" || func == "max")
    type = join(0, 1);
  else if (func == "select")
    type = join(2, 3);
  else if ((func == "sqrt" || func == "relu" || func == "abs" || func == "tf32_truncate") &&
           args.size() == 1 && args[0])
    type = args[0]->type;
  else if (const MathFunction *m = find_math_function(func);
           m && args.size() == static_cast<size_t>(m->arity))
    type = math_result_type(args);
  else
    type = ValueType::Meta;
}

Expr ListExpr::make(std::vector<Expr> elems, SrcLoc loc) {
  return build(new ListExpr(std::move(elems), loc));
}

// --- Statements --------------------------------------------------------------

Stmt Assign::make(Sym buf, std::vector<Expr> idx, Expr rhs, SrcLoc loc) {
  return build(new Assign(std::move(buf), std::move(idx), std::move(rhs), loc));
}
void Assign::finish() { EXGC_CHECK(rhs) << "assignment to " << buf.name << " without a value"; }

Stmt Reduce::make(Sym buf, std::vector<Expr> idx, Expr rhs, SrcLoc loc) {
  return build(new Reduce(std::move(buf), std::move(idx), std::move(rhs), loc));
}
void Reduce::finish() { EXGC_CHECK(rhs) << "reduction into " << buf.name << " without a value"; }

Stmt Alloc::make(Sym name, Type type, SrcLoc loc) {
  return build(new Alloc(std::move(name), std::move(type), loc));
}
void Alloc::finish() {
  EXGC_CHECK(type.kind != Type::Kind::Control) << "only data and barriers are allocated";
  EXGC_CHECK(type.kind != Type::Kind::Data || is_data(type.scalar))
      << name.name << " allocated as " << value_type_name(type.scalar);
}

Stmt WindowStmt::make(Sym name, Expr rhs, Expr mem, SrcLoc loc) {
  return build(new WindowStmt(std::move(name), std::move(rhs), std::move(mem), loc));
}
void WindowStmt::finish() {
  EXGC_CHECK(rhs && rhs.as<WindowExpr>()) << "a window statement binds a window expression";
}

std::optional<LoopKind> loop_kind(const std::string &name) {
  static const std::pair<const char *, LoopKind> kNames[] = {
      {"seq", LoopKind::Seq},
      {"cuda_tasks", LoopKind::CudaTasks},
      {"cuda_threads", LoopKind::CudaThreads}};
  return find_named(kNames, name);
}

LoopKind LoopMode::kind() const {
  std::optional<LoopKind> k = loop_kind(name);
  EXGC_CHECK(k) << "loop mode '" << name << "' after the typecheck";
  return *k;
}

const Expr *LoopMode::kwarg(const std::string &key) const {
  for (const KwArg &k : kwargs)
    if (k.key == key)
      return &k.value;
  return nullptr;
}

Stmt For::make(Sym iter, Expr lo, Expr hi, LoopMode mode, Block body, SrcLoc loc) {
  return build(
      new For(std::move(iter), std::move(lo), std::move(hi), std::move(mode), std::move(body), loc));
}
void For::finish() { EXGC_CHECK(lo && hi) << "loop " << iter.name << " needs bounds"; }

Stmt If::make(Expr cond, Block then_body, Block else_body, SrcLoc loc) {
  return build(new If(std::move(cond), std::move(then_body), std::move(else_body), loc));
}
void If::finish() { EXGC_CHECK(cond) << "if without a condition"; }

Stmt Pass::make(SrcLoc loc) { return build(new Pass(loc)); }

Stmt CallStmt::make(std::string callee, std::vector<Expr> args, std::vector<KwArg> kwargs,
                    std::vector<Expr> barriers, SrcLoc loc) {
  return build(new CallStmt(std::move(callee), std::move(args), std::move(kwargs),
                            std::move(barriers), loc));
}
void CallStmt::finish() { EXGC_CHECK(!callee.empty()) << "a call needs a callee"; }

Stmt With::make(Expr ctx, Block body, SrcLoc loc) {
  return build(new With(std::move(ctx), std::move(body), loc));
}
void With::finish() { EXGC_CHECK(ctx) << "with needs a context"; }

const std::string &context_name(const Expr &ctx) {
  static const std::string kNone;
  if (const auto *c = ctx.as<Call>())
    return c->func;
  if (const auto *v = ctx.as<Var>())
    return v->name.name;
  return kNone;
}

const std::string &With::context_name() const { return exgc::context_name(ctx); }

ContextKind With::context() const {
  std::optional<ContextKind> k = context_kind(context_name());
  EXGC_CHECK(k) << "context '" << context_name() << "' after the typecheck";
  return *k;
}

std::optional<ContextKind> context_kind(const std::string &name) {
  static const std::pair<const char *, ContextKind> kNames[] = {
      {"CudaDeviceFunction", ContextKind::CudaDeviceFunction},
      {"CudaWarps", ContextKind::CudaWarps}};
  return find_named(kNames, name);
}

Stmt Fence::make(std::string first, std::string second, SrcLoc loc) {
  return build(new Fence(std::move(first), std::move(second), loc));
}

Stmt Arrive::make(std::string timeline, std::vector<Expr> barriers, SrcLoc loc) {
  return build(new Arrive(std::move(timeline), std::move(barriers), loc));
}
void Arrive::finish() { EXGC_CHECK(!barriers.empty()) << "Arrive needs a barrier"; }

Stmt Await::make(Expr bar, std::string timeline, Expr n, SrcLoc loc) {
  return build(new Await(std::move(bar), std::move(timeline), std::move(n), loc));
}
void Await::finish() { EXGC_CHECK(bar && n) << "Await needs a barrier and a count"; }

// --- Procs -------------------------------------------------------------------

const Arg *ProcNode::find_arg(const std::string &n) const {
  for (const Arg &a : args)
    if (a.name.name == n)
      return &a;
  return nullptr;
}

const InstrAttr *ProcNode::attr(const std::string &key) const {
  for (const InstrAttr &a : attrs)
    if (a.key == key)
      return &a;
  return nullptr;
}

} // namespace exgc
