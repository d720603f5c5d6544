// nodes.h - the proc IR: an immutable tree of expressions and statements ---//
//
// The sequential-meaning contract. A proc means what it computes when its body
// runs top to bottom, once, on one thread:
//  - `for` runs its iterator from lo to hi - 1 in order, whatever its mode
//    (seq, cuda_tasks, cuda_threads); the mode only says how the GPU may run it.
//  - `with` blocks (devices, warps) and sync statements (Fence, Arrive, Await,
//    trailing barriers) do nothing sequentially.
//  - Index arithmetic is on unbounded integers: `/` and `%` are floor division
//    and its remainder by a positive constant (-7 / 2 == -4, -7 % 2 == 1).
//  - Data arithmetic is on reals (`R`); precisions say how the machine rounds.
//  - `x += e` is the only reduction; it reads x.
//
// Grammar of the tree (mirrors the structs below):
//   proc   ::= name(args) preds body            instr adds attrs
//   stmt   ::= Assign(buf, idx*, rhs) | Reduce(buf, idx*, rhs) | Alloc(name, type)
//            | WindowStmt(name, rhs, mem?) | For(iter, lo, hi, mode, body)
//            | If(cond, then, else) | Pass | CallStmt(callee, args, kwargs, bars)
//            | With(ctx, body) | Fence(tl1, tl2) | Arrive(tl, bars) | Await(bar, tl, n)
//   expr   ::= IntImm | FloatImm | BoolImm | StrImm | Var(sym) | Read(buf, idx*)
//            | WindowExpr(buf, (point | lo:hi)*) | BinOp(op, a, b) | UnOp(op, a)
//            | Call(func, args, kwargs) | ListExpr(elems)
// Call and ListExpr also spell the compile-time descriptors the language uses in
// annotation positions: memories (`Sm90_SmemSwizzled(128)`), units
// (`8 * cuda_thread`), contexts (`CudaDeviceFunction(blockDim=256)`); the front
// end keeps them as expressions and the stage that needs one interprets it.
//
// Nodes are built only through their `make` functions, which check the node's
// invariants, derive its type and give it a fresh NodeId, and changed through
// `edited`, which copies a node, lets the caller set fields, then checks and
// types the copy like make() does. The constructors are private, so no other
// code can build or copy a node unchecked. An edited node (IRMutator's
// rebuilds too) keeps its NodeId: the id names "this statement" across
// rewrites, and cursors follow it. Types of expressions: literals, BinOp,
// UnOp, built-in Calls and ListExpr derive theirs from their operands; Var,
// Read and WindowExpr carry the declared type of the name they use, which
// make() takes and IRMutator keeps current (mutator.h). Handles (Expr, Stmt) are shared pointers to
// const nodes: a pass that changes nothing returns the same handle
// (`same_as`), so identity of handles means "unchanged".
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/support/check.h"
#include "compiler/support/source_loc.h"

namespace exgc {

using NodeId = uint64_t;
NodeId fresh_node_id();

/// A name bound by a declaration. Two Syms are the same binding when their ids
/// are equal; names may repeat (shadowing, rewrites). Id 0 marks a global name
/// that no declaration in the proc binds (units, memories, timelines, builtins).
struct Sym {
  std::string name;
  uint32_t id = 0;
  static Sym fresh(std::string name);
  static Sym global(std::string name) { return Sym{std::move(name), 0}; }
  bool is_global() const { return id == 0; }
  friend bool operator==(const Sym &a, const Sym &b) { return a.id == b.id && a.name == b.name; }
  friend bool operator!=(const Sym &a, const Sym &b) { return !(a == b); }
};

/// Value types. Int is an integer literal, usable as any control or data type.
/// Meta marks expressions that are not values (strings, lists, descriptors).
enum class ValueType {
  Int, Size, Index, Bool,                                  // control
  F16, BF16, F32, F64, I8, U8, U16, I32, E4M3, E5M2, R,   // data
  Str, Meta,
};
bool is_control(ValueType t);
bool is_data(ValueType t);
/// A floating-point data type (R included: a precision not chosen yet).
bool is_float(ValueType t);
/// Bytes of one element in generated code: 8, 4, 2, or 1 (8-bit types and R).
int64_t element_bytes(ValueType t);
/// Spelling in source ("f32", "size"); Int and Meta have none and print "int", "meta".
const char *value_type_name(ValueType t);
/// Parses a scalar type keyword; returns false when `s` is not one.
bool parse_value_type(const std::string &s, ValueType &out);

enum class ExprKind {
#define EXGC_EXPR(Name) Name,
#include "compiler/ir/node_kinds.def"
};
enum class StmtKind {
#define EXGC_STMT(Name) Name,
#include "compiler/ir/node_kinds.def"
};

struct ExprNode {
  const ExprKind kind;
  NodeId id;
  SrcLoc loc;
  ValueType type;
  virtual ~ExprNode() = default;

protected:
  ExprNode(ExprKind k, SrcLoc l, ValueType t) : kind(k), id(fresh_node_id()), loc(l), type(t) {}
};

struct StmtNode {
  const StmtKind kind;
  NodeId id;
  SrcLoc loc;
  virtual ~StmtNode() = default;

protected:
  StmtNode(StmtKind k, SrcLoc l) : kind(k), id(fresh_node_id()), loc(l) {}
};

/// Shared handle to an immutable expression. `as<T>()` is null on a kind
/// mismatch: a kind tag is cheaper than RTTI and reads the same at call sites.
class Expr {
public:
  Expr() = default;
  Expr(std::shared_ptr<const ExprNode> p) : p_(std::move(p)) {}
  const ExprNode *get() const { return p_.get(); }
  const ExprNode *operator->() const { return p_.get(); }
  explicit operator bool() const { return p_ != nullptr; }
  bool same_as(const Expr &o) const { return p_ == o.p_; }
  template <typename T> const T *as() const {
    return p_ && p_->kind == T::kKind ? static_cast<const T *>(p_.get()) : nullptr;
  }

private:
  std::shared_ptr<const ExprNode> p_;
};

class Stmt {
public:
  Stmt() = default;
  Stmt(std::shared_ptr<const StmtNode> p) : p_(std::move(p)) {}
  const StmtNode *get() const { return p_.get(); }
  const StmtNode *operator->() const { return p_.get(); }
  explicit operator bool() const { return p_ != nullptr; }
  bool same_as(const Stmt &o) const { return p_ == o.p_; }
  template <typename T> const T *as() const {
    return p_ && p_->kind == T::kKind ? static_cast<const T *>(p_.get()) : nullptr;
  }

private:
  std::shared_ptr<const StmtNode> p_;
};

using Block = std::vector<Stmt>;
bool same_block(const Block &a, const Block &b);

/// `key=value` argument of a call or a descriptor.
struct KwArg {
  std::string key;
  Expr value;
  SrcLoc loc;
};

// ---------------------------------------------------------------------------
// Types

/// The declared type of an argument or allocation.
///  - Control: `size`, `index`, `bool` (scalar only).
///  - Data: a scalar (`f32`, shape empty) or a tensor `f32[M, K]`; `window` for
///    an argument written `[f32][M, K]`.
///  - Barrier: `barrier[d0, (d1) @ ring(4)]` (shape may be empty).
/// `mem` is the `@ Memory` annotation or null when the source had none (data
/// then lives in DRAM).
struct Type {
  enum class Kind { Control, Data, Barrier };
  Kind kind = Kind::Data;
  ValueType scalar = ValueType::F32; // Control/Data: the element type
  bool window = false;
  std::vector<Expr> shape;
  std::vector<Expr> ring; // Barrier: per dim, the ring size or null
  Expr mem;
  SrcLoc loc;

  static Type control(ValueType t, SrcLoc loc);
  static Type data(ValueType t, std::vector<Expr> shape, Expr mem, bool window, SrcLoc loc);
  static Type barrier(std::vector<Expr> shape, std::vector<Expr> ring, Expr mem, SrcLoc loc);
  bool is_tensor() const { return kind == Kind::Data && !shape.empty(); }
};

// ---------------------------------------------------------------------------
// Expressions

/// What every node kind T (handle type H: Expr or Stmt) shares: `edited`,
/// and the one place nodes are allocated (`build`), which runs the node's
/// `finish` (its checks and derived type; each kind that has any declares one).
template <typename T, typename H> struct NodeFactory {
  /// A copy of this node with the fields `edit` sets, checked (and typed)
  /// again like make(); it keeps this node's id and location, unless `edit`
  /// sets a fresh id.
  template <typename Edit> H edited(Edit &&edit) const {
    T *copy = new T(static_cast<const T &>(*this));
    edit(*copy);
    return build(copy);
  }

protected:
  void finish() {}
  static H build(T *n) {
    std::shared_ptr<const T> owned(n);
    n->finish();
    return H(std::move(owned));
  }
};

/// The private part every node kind declares: its copy constructor, and the
/// factory as a friend so that `build` and `edited` reach the constructors.
#define EXGC_NODE_PRIVATE(Name, Handle)                                        \
  friend NodeFactory<Name, Handle>;                                            \
  Name(const Name &) = default;                                                \
  Name &operator=(const Name &) = delete;
#define EXGC_EXPR_PRIVATE(Name) EXGC_NODE_PRIVATE(Name, Expr)
#define EXGC_STMT_PRIVATE(Name) EXGC_NODE_PRIVATE(Name, Stmt)

template <typename T, ExprKind K> struct ExprBase : ExprNode, NodeFactory<T, Expr> {
  static constexpr ExprKind kKind = K;

protected:
  ExprBase(SrcLoc l, ValueType t) : ExprNode(K, l, t) {}
  ExprBase(const ExprBase &) = default;
};

/// An integer literal (type Int: adapts to index or data use).
struct IntImm final : ExprBase<IntImm, ExprKind::IntImm> {
  int64_t value;
  static Expr make(int64_t v, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(IntImm)
  IntImm(int64_t v, SrcLoc l) : ExprBase(l, ValueType::Int), value(v) {}
};

/// A real literal (type R).
struct FloatImm final : ExprBase<FloatImm, ExprKind::FloatImm> {
  double value;
  static Expr make(double v, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(FloatImm)
  FloatImm(double v, SrcLoc l) : ExprBase(l, ValueType::R), value(v) {}
};

struct BoolImm final : ExprBase<BoolImm, ExprKind::BoolImm> {
  bool value;
  static Expr make(bool v, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(BoolImm)
  BoolImm(bool v, SrcLoc l) : ExprBase(l, ValueType::Bool), value(v) {}
};

/// A string literal; only in annotation positions (`warp_role("producer", 4)`).
struct StrImm final : ExprBase<StrImm, ExprKind::StrImm> {
  std::string value;
  static Expr make(std::string v, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(StrImm)
  StrImm(std::string v, SrcLoc l) : ExprBase(l, ValueType::Str), value(std::move(v)) {}
};

/// A use of a name: a control value (size, index, loop iterator), a data scalar
/// argument, or a global name (unit, memory, timeline) with type Meta.
struct Var final : ExprBase<Var, ExprKind::Var> {
  Sym name;
  static Expr make(Sym name, ValueType type, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(Var)
  void finish();
  Var(Sym n, ValueType t, SrcLoc l) : ExprBase(l, t), name(std::move(n)) {}
};

/// `buf[i, j]`: one element of a tensor, or a scalar buffer when idx is empty.
/// Also names one barrier of a barrier array in sync statements (type Meta).
struct Read final : ExprBase<Read, ExprKind::Read> {
  Sym buf;
  std::vector<Expr> idx;
  static Expr make(Sym buf, std::vector<Expr> idx, ValueType type, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(Read)
  void finish();
  Read(Sym b, std::vector<Expr> i, ValueType t, SrcLoc l)
      : ExprBase(l, t), buf(std::move(b)), idx(std::move(i)) {}
};

/// One coordinate of a window: a point `i`, or an interval `lo:hi` where a null
/// bound means the start or end of the dimension (`:` is the whole dimension).
struct WindowIdx {
  bool is_slice = false;
  Expr lo, hi; // point: lo only
  static WindowIdx point(Expr e) { return {false, std::move(e), Expr()}; }
  static WindowIdx slice(Expr lo, Expr hi) { return {true, std::move(lo), std::move(hi)}; }
};

/// `buf[a:b, i]`: a view of a tensor with one dimension per slice. Points drop
/// their dimension. The element type is the buffer's.
struct WindowExpr final : ExprBase<WindowExpr, ExprKind::WindowExpr> {
  Sym buf;
  std::vector<WindowIdx> idx;
  static Expr make(Sym buf, std::vector<WindowIdx> idx, ValueType type, SrcLoc loc = {});
  size_t rank() const;

private:
  EXGC_EXPR_PRIVATE(WindowExpr)
  void finish();
  WindowExpr(Sym b, std::vector<WindowIdx> i, ValueType t, SrcLoc l)
      : ExprBase(l, t), buf(std::move(b)), idx(std::move(i)) {}
};

/// The buffer (or barrier) an expression names: a Var's name, an element's or
/// a window's buffer; null for any other expression. One answer for every
/// stage, so that a window is never taken for "not a buffer" in one of them.
const Sym *named_buffer(const Expr &e);

enum class BinOpKind { Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or };
const char *binop_spelling(BinOpKind op);
/// Binding strength for printing: or 1, and 2, comparisons 4, + - 5, * / % 6.
int binop_precedence(BinOpKind op);
bool is_comparison(BinOpKind op);

/// `a op b`. Index `/` and `%` are floor division by a positive constant.
struct BinOp final : ExprBase<BinOp, ExprKind::BinOp> {
  BinOpKind op;
  Expr a, b;
  /// The result type is derived: Bool for comparisons and logic, the data type
  /// when either side is data, else the wider control type.
  static Expr make(BinOpKind op, Expr a, Expr b, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(BinOp)
  void finish();
  BinOp(BinOpKind o, Expr x, Expr y, SrcLoc l)
      : ExprBase(l, ValueType::Meta), op(o), a(std::move(x)), b(std::move(y)) {}
};

enum class UnOpKind { Neg, Not };

struct UnOp final : ExprBase<UnOp, ExprKind::UnOp> {
  UnOpKind op;
  Expr a;
  static Expr make(UnOpKind op, Expr a, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(UnOp)
  void finish();
  UnOp(UnOpKind o, Expr x, SrcLoc l) : ExprBase(l, ValueType::Meta), op(o), a(std::move(x)) {}
};

/// `f(args, key=value)`: a built-in function (`select min max sqrt relu abs
/// stride offset aligned`, the math functions of math_functions.h) or a
/// descriptor constructor in an annotation position.
struct Call final : ExprBase<Call, ExprKind::Call> {
  /// `stride(x, d)`, `offset(x, d)` and `aligned(x, n)` ask about the layout
  /// of buffer `x`: they read none of its data.
  static bool is_buffer_query(const std::string &f) {
    return f == "stride" || f == "offset" || f == "aligned";
  }

  std::string func;
  std::vector<Expr> args;
  std::vector<KwArg> kwargs;
  /// The result type is derived: index for `stride` and `offset`, bool for
  /// `aligned`; for `min`,
  /// `max` and `select` the join of the compared values (as BinOp's);
  /// `sqrt`, `relu`, `abs` the argument's; a math function the join of its
  /// arguments' (R when all are control values); Meta for anything else (a
  /// descriptor, or a function the typecheck refuses as a value).
  static Expr make(std::string func, std::vector<Expr> args, std::vector<KwArg> kwargs,
                   SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(Call)
  void finish();
  Call(std::string f, std::vector<Expr> a, std::vector<KwArg> k, SrcLoc l)
      : ExprBase(l, ValueType::Meta), func(std::move(f)), args(std::move(a)), kwargs(std::move(k)) {}
};

/// `[a, b]`: only in annotation positions (`warps=[warp_role(...), ...]`).
struct ListExpr final : ExprBase<ListExpr, ExprKind::ListExpr> {
  std::vector<Expr> elems;
  static Expr make(std::vector<Expr> elems, SrcLoc loc = {});

private:
  EXGC_EXPR_PRIVATE(ListExpr)
  ListExpr(std::vector<Expr> e, SrcLoc l) : ExprBase(l, ValueType::Meta), elems(std::move(e)) {}
};

// ---------------------------------------------------------------------------
// Statements

template <typename T, StmtKind K> struct StmtBase : StmtNode, NodeFactory<T, Stmt> {
  static constexpr StmtKind kKind = K;

protected:
  explicit StmtBase(SrcLoc l) : StmtNode(K, l) {}
  StmtBase(const StmtBase &) = default;
};

/// `buf[idx] = rhs`: writes one element (write-only: it does not read buf).
struct Assign final : StmtBase<Assign, StmtKind::Assign> {
  Sym buf;
  std::vector<Expr> idx;
  Expr rhs;
  static Stmt make(Sym buf, std::vector<Expr> idx, Expr rhs, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Assign)
  void finish();
  Assign(Sym b, std::vector<Expr> i, Expr r, SrcLoc l)
      : StmtBase(l), buf(std::move(b)), idx(std::move(i)), rhs(std::move(r)) {}
};

/// `buf[idx] += rhs`: reads and writes one element.
struct Reduce final : StmtBase<Reduce, StmtKind::Reduce> {
  Sym buf;
  std::vector<Expr> idx;
  Expr rhs;
  static Stmt make(Sym buf, std::vector<Expr> idx, Expr rhs, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Reduce)
  void finish();
  Reduce(Sym b, std::vector<Expr> i, Expr r, SrcLoc l)
      : StmtBase(l), buf(std::move(b)), idx(std::move(i)), rhs(std::move(r)) {}
};

/// `name: type`: a buffer or barrier that lives until the end of its block.
/// Its contents are undefined until written.
struct Alloc final : StmtBase<Alloc, StmtKind::Alloc> {
  Sym name;
  Type type;
  static Stmt make(Sym name, Type type, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Alloc)
  void finish();
  Alloc(Sym n, Type t, SrcLoc l) : StmtBase(l), name(std::move(n)), type(std::move(t)) {}
};

/// `name = buf[a:b, i] @ mem`: binds a window name (a view, no copy). `mem` is
/// a special-window memory (tensor maps) or null.
struct WindowStmt final : StmtBase<WindowStmt, StmtKind::WindowStmt> {
  Sym name;
  Expr rhs; // a WindowExpr
  Expr mem;
  static Stmt make(Sym name, Expr rhs, Expr mem, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(WindowStmt)
  void finish();
  WindowStmt(Sym n, Expr r, Expr m, SrcLoc l)
      : StmtBase(l), name(std::move(n)), rhs(std::move(r)), mem(std::move(m)) {}
};

/// The loop modes, resolved from the name once (loop_kind); stages after the
/// typecheck, which refuses any other name, switch on the kind.
enum class LoopKind { Seq, CudaTasks, CudaThreads };
/// The kind of the loop mode `name`; nullopt for a name the language lacks.
std::optional<LoopKind> loop_kind(const std::string &name);

/// `for iter in mode(lo, hi, kwargs): body`. Sequentially: iter = lo .. hi-1
/// in order, nothing when hi <= lo. The mode (`seq`, `cuda_tasks`,
/// `cuda_threads`) and its kwargs (`unroll=k`, `unit=U`) only say how the GPU
/// may run the iterations.
struct LoopMode {
  std::string name = "seq";
  std::vector<KwArg> kwargs;
  const Expr *kwarg(const std::string &key) const;
  /// The mode's kind, for stages after the typecheck (which refuses any other
  /// name): an internal error on a name the language lacks.
  LoopKind kind() const;
};

struct For final : StmtBase<For, StmtKind::For> {
  Sym iter;
  Expr lo, hi;
  LoopMode mode;
  Block body;
  static Stmt make(Sym iter, Expr lo, Expr hi, LoopMode mode, Block body, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(For)
  void finish();
  For(Sym i, Expr a, Expr b, LoopMode m, Block bd, SrcLoc l)
      : StmtBase(l), iter(std::move(i)), lo(std::move(a)), hi(std::move(b)), mode(std::move(m)),
        body(std::move(bd)) {}
};

/// `if cond: then_body else: else_body` (else_body may be empty). `elif` is an
/// If alone in an else body.
struct If final : StmtBase<If, StmtKind::If> {
  Expr cond;
  Block then_body, else_body;
  static Stmt make(Expr cond, Block then_body, Block else_body, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(If)
  void finish();
  If(Expr c, Block t, Block e, SrcLoc l)
      : StmtBase(l), cond(std::move(c)), then_body(std::move(t)), else_body(std::move(e)) {}
};

struct Pass final : StmtBase<Pass, StmtKind::Pass> {
  static Stmt make(SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Pass)
  explicit Pass(SrcLoc l) : StmtBase(l) {}
};

/// `callee(args, key=value) >> bar0 >> bar1`: a call of a proc or instruction.
/// Keyword arguments bind an instruction's template parameters; the trailing
/// barriers (Read or WindowExpr of a barrier) are sync annotations.
struct CallStmt final : StmtBase<CallStmt, StmtKind::CallStmt> {
  std::string callee;
  std::vector<Expr> args;
  std::vector<KwArg> kwargs;
  std::vector<Expr> barriers;
  static Stmt make(std::string callee, std::vector<Expr> args, std::vector<KwArg> kwargs,
                   std::vector<Expr> barriers, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(CallStmt)
  void finish();
  CallStmt(std::string c, std::vector<Expr> a, std::vector<KwArg> k, std::vector<Expr> b, SrcLoc l)
      : StmtBase(l), callee(std::move(c)), args(std::move(a)), kwargs(std::move(k)),
        barriers(std::move(b)) {}
};

/// The `with` contexts, resolved from the name once (context_kind).
enum class ContextKind { CudaDeviceFunction, CudaWarps };
/// The kind of the context `name`; nullopt for a name the language lacks.
std::optional<ContextKind> context_kind(const std::string &name);
/// The name of a context descriptor: the callee of a Call, or the name of a
/// Var (`CudaDeviceFunction`); "" for anything else.
const std::string &context_name(const Expr &ctx);

/// `with ctx: body`: a device function or warp selection; sequentially just body.
struct With final : StmtBase<With, StmtKind::With> {
  Expr ctx; // a Call such as CudaDeviceFunction(blockDim=256)
  Block body;
  static Stmt make(Expr ctx, Block body, SrcLoc loc = {});
  /// The context's name: the callee of `ctx`, or the name it is.
  const std::string &context_name() const;
  /// The context's kind, for stages after the typecheck (which refuses any
  /// other name): an internal error on a name the language lacks.
  ContextKind context() const;

private:
  EXGC_STMT_PRIVATE(With)
  void finish();
  With(Expr c, Block b, SrcLoc l) : StmtBase(l), ctx(std::move(c)), body(std::move(b)) {}
};

/// `Fence(first, second)`: a barrier over the current collective; sequentially nothing.
struct Fence final : StmtBase<Fence, StmtKind::Fence> {
  std::string first, second; // timeline names
  static Stmt make(std::string first, std::string second, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Fence)
  Fence(std::string a, std::string b, SrcLoc l)
      : StmtBase(l), first(std::move(a)), second(std::move(b)) {}
};

/// `Arrive(tl) >> bar >> ...`; sequentially nothing.
struct Arrive final : StmtBase<Arrive, StmtKind::Arrive> {
  std::string timeline;
  std::vector<Expr> barriers;
  static Stmt make(std::string timeline, std::vector<Expr> barriers, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Arrive)
  void finish();
  Arrive(std::string t, std::vector<Expr> b, SrcLoc l)
      : StmtBase(l), timeline(std::move(t)), barriers(std::move(b)) {}
};

/// `Await(bar, tl, n)`; sequentially nothing.
struct Await final : StmtBase<Await, StmtKind::Await> {
  Expr bar;
  std::string timeline;
  Expr n;
  static Stmt make(Expr bar, std::string timeline, Expr n, SrcLoc loc = {});

private:
  EXGC_STMT_PRIVATE(Await)
  void finish();
  Await(Expr b, std::string t, Expr c, SrcLoc l)
      : StmtBase(l), bar(std::move(b)), timeline(std::move(t)), n(std::move(c)) {}
};

// ---------------------------------------------------------------------------
// Procs

struct Arg {
  Sym name;
  Type type;
  SrcLoc loc;
};

/// One `key: value, ...` line of an instr (`template: N`, `emit: "..."`).
struct InstrAttr {
  std::string key;
  std::vector<Expr> values;
  SrcLoc loc;
};

/// A proc or an instruction. `preds` are the leading `assert`s: preconditions
/// every caller satisfies and every check may assume.
struct ProcNode {
  std::string name;
  bool is_instr = false;
  std::vector<Arg> args;
  std::vector<InstrAttr> attrs;
  std::vector<Expr> preds;
  Block body;
  SrcLoc loc;
  NodeId id = fresh_node_id();

  const Arg *find_arg(const std::string &name) const;
  const InstrAttr *attr(const std::string &key) const;
};
using Proc = std::shared_ptr<const ProcNode>;

} // namespace exgc
