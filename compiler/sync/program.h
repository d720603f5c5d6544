// program.h - the abstract-machine program the sync checker interprets -----//
//
// Owns the data structure of a sync program (docs/sync.md,
// "The model"): accesses, Fence / Arrive / Await / join, allocations and
// frees of data tensors and barriers (plain or managed rings), control flow
// (seq, task and thread loops, domain reshapes, if) and `let` control values.
// Data values are never simulated; only control values exist.
//
// Grammar of the text form (text_format.h prints and parses it):
//
//   program  := stmt*
//   stmt     := 'let' NAME '=' expr
//             | 'data' NAME dims ['ring' '(' INT ',' INT ')'] ['guard' '(' NAME {',' INT} ')']
//             | 'barrier' NAME dims bflag* ['ring' '(' INT ',' INT ')'] ['pre_arrive' '(' INT ')']
//             | 'free' NAME ['check' '=' quals]
//             | ('read' | 'write' | 'update') NAME idx+ 'q' '=' QUAL ['ext' '=' quals]
//                   ['ooo'] ['conv'] ['clip'] ['atomic' '=' quals] ('>>' NAME idx)*
//             | 'fence' synctl '->' synctl
//             | 'arrive' synctl ('>>' NAME idx)+
//             | 'await' NAME idx '->' synctl [INT]
//             | 'join'
//             | ('seq' | 'tasks') NAME 'in' expr '..' expr block
//             | 'threads' NAME 'in' expr '..' expr 'dim' '=' INT 'width' '=' INT
//                   ['stride' '=' INT] ['offset' '=' INT] block
//             | 'device' '[' INT {',' INT} ']' block
//             | 'reshape' INT '->' '[' INT {',' INT} ']' block
//             | 'if' expr block ['else' block]
//   block    := '{' NEWLINE stmt* '}'
//   idx      := '[' [item {',' item}] ']'      item := expr | expr ':' expr | ':'
//   bflag    := 'one_shot_arrive' | 'one_shot_await' | 'checked'
//             | 'mbarrier' | 'commit_group' | 'cluster_sync'   (shorthands)
//   every stmt may end in  '@' FILE ':' LINE ':' COL   (the .exg location)
//   '#' starts a comment.
#ifndef EXGC_SYNC_PROGRAM_H
#define EXGC_SYNC_PROGRAM_H

#include "compiler/sync/quals.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace exgc::sync {

/// A location in a file (1-based line and column; line 0 = unknown).
struct SrcLoc {
  std::string file;
  int line = 0, col = 0;
  bool known() const { return line > 0; }
  std::string str() const;
};

// --- Control expressions -------------------------------------------------

enum class ExprKind { Int, Var, Neg, Not, Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or };

struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

/// Integer control expression. `/` and `%` are floor division and its
/// remainder (-7 / 2 == -4, -7 % 2 == 1); dividing by zero is a program error.
/// Comparisons and and/or/not give 0 or 1.
struct ExprNode {
  ExprKind kind;
  int64_t value = 0;   // Int
  std::string name;    // Var
  mutable int slot = -1; // Var: filled by the interpreter's binding pass
  int height = 1;        // of the tree: the parser bounds it (walks recurse)
  Expr a, b;
  static Expr make_int(int64_t v);
  static Expr make_var(std::string n);
  static Expr make(ExprKind k, Expr a, Expr b = nullptr);
};
std::string expr_string(const Expr &e);

/// One index of an access or barrier expression: a point `e`, a half-open
/// window `lo:hi`, or `:` (the whole dimension).
struct IndexItem {
  Expr lo, hi; // point: hi == nullptr
  bool whole = false;
  static IndexItem point(Expr e) { return {std::move(e), nullptr, false}; }
  static IndexItem window(Expr lo, Expr hi) { return {std::move(lo), std::move(hi), false}; }
  static IndexItem all() { return {nullptr, nullptr, true}; }
  bool is_point() const { return !whole && !hi; }
};
using Index = std::vector<IndexItem>;

/// `name[idx]`: a barrier expression (Arrive, Await, trailing barrier).
struct BarrierRef {
  std::string name;
  Index idx;
  mutable int sym = -1; ///< tensor-name slot, set by the interpreter's binding pass
};

// --- Statements ------------------------------------------------------------

enum class StmtKind {
  Let, Data, Barrier, Free, Access, Fence, Arrive, Await, Join,
  Seq, Tasks, Threads, Device, Reshape, If,
};

enum class AccessKind {
  Read,   ///< reads every element
  Write,  ///< mutates without reading (write-only: `x = e`, TMA stores)
  Update, ///< reads then mutates (`x += e`, wgmma accumulators)
};

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;
using Block = std::vector<StmtP>;

/// A statement. One struct for all kinds keeps the tree and its walkers short;
/// each field says which kinds use it.
struct Stmt {
  StmtKind kind;
  SrcLoc loc;       ///< the .exg location it was lowered from (may be unknown)
  SrcLoc text_loc;  ///< where it is in the .sync text (parsed programs only)

  std::string name; ///< Let/loop iterator; Data/Barrier/Free/Access tensor
  Expr value;       ///< Let value; If condition; loop lo
  Expr hi;          ///< loop hi
  std::vector<Expr> dims;       ///< Data/Barrier extents
  std::vector<int64_t> ints;    ///< Device domain; Reshape factors

  // Data / Barrier allocation.
  int ring_dim = -1, ring_depth = 0;      ///< managed ring: logical dim, depth
  std::string guard;                      ///< Data: guarding barrier (ring_guarded_by)
  std::vector<int> guard_mcast;           ///< Data: barrier dims the guard is multicast over
  bool one_shot_arrive = false, one_shot_await = false, checked = false; ///< Barrier
  int pre_arrive = 0;                     ///< Barrier: first k ring positions arrived

  // Free.
  bool has_check = false;
  QualMask check = 0; ///< free check: every thread needs temporal on one of these

  // Access.
  AccessKind access = AccessKind::Read;
  std::vector<Index> targets; ///< one window, or several (multicast), of `name`
  Qual initial = Qual::Cuda2;
  QualMask ext = 0;           ///< extended quals checked against prior records
  bool ooo = false, conv = false, clip = false;
  QualMask atomic = 0;
  std::vector<BarrierRef> bars; ///< Access: trailing barrier; Arrive: targets; Await: one

  // Fence / Arrive / Await.
  SyncTl l1, l2;
  int64_t n = 0; ///< Await: all but the last n arrives

  // Threads loop: iteration i is dim `dim`, [box_lo + offset + i*stride, +width).
  int dim = 0;
  int64_t width = 0, stride = 0, offset = 0;

  Block body, else_body;

  mutable int sym = -1;       ///< name slot (tensor or value), set by the binding pass
  mutable int innermost = -1; ///< Tasks: 1 when no task loop is nested inside
};

/// A whole program: the top-level block runs on the CPU (all threads).
struct Program {
  Block body;
};

StmtP make_stmt(StmtKind k, SrcLoc loc = {});

} // namespace exgc::sync

#endif
