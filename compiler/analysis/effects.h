// effects.h - what a piece of code reads, writes and reduces -----------------//
// Owns: access summaries of statements for the scheduling checks. Every read,
// write and reduce becomes an Access: its buffer (the root buffer, after
// looking through window statements and call arguments), its index
// expressions in that buffer's coordinates, and the loops and `if`s between
// the summarized code and the access. A call contributes its callee's body
// (an instr's behavior) with the parameters bound to the arguments (an
// instr's template parameters to its keyword arguments, `lane_mask=4`). `with`
// blocks are transparent; sync statements (Fence, Arrive, Await) and `pass`
// have no sequential effect. Allocations and window names the code defines
// are listed, so checks can see buffers that are private to the code.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc::analysis {

enum class AccessKind { Read, Write, Reduce };
const char *access_verb(AccessKind k); // "reads", "writes", "reduces into"

/// A loop or a condition between the summarized code and an access.
struct Scope {
  bool is_loop = true;
  Sym iter;     // loop
  Expr lo, hi;  // loop
  Expr cond;    // condition
  bool negated = false; // the else branch of `cond`
};

struct Access {
  AccessKind kind = AccessKind::Read;
  Sym buf;               // the root buffer
  std::vector<Expr> idx; // in the root buffer's coordinates
  std::vector<Scope> scopes;
  SrcLoc loc;
  std::string text;      // "x[i + 1]" as written at loc
  bool anywhere = false; // any element (a call whose callee is unknown)
};

struct Effects {
  std::vector<Access> accesses;
  std::set<uint32_t> defs;      // allocations and window names the code binds
  std::set<uint32_t> mentioned; // every buffer or variable the code names
};

/// Finds a callee's body by name (null when unknown: then the call is
/// summarized as reading and writing each buffer argument anywhere).
using CalleeLookup = std::function<const ProcNode *(const std::string &)>;

/// A window binding `name = base[...]` resolved to its root buffer.
struct Alias {
  Sym base;
  std::vector<bool> is_slice;
  std::vector<Expr> start; // point index, or slice start (0 when omitted)
};

class EffectCollector {
public:
  /// `proc` supplies the window statements that accesses may go through.
  EffectCollector(const ProcNode &proc, CalleeLookup callees);

  Effects of(const Block &b) const;
  Effects of(const Stmt &s) const;
  /// The reads of an expression (a condition, a bound).
  Effects of_expr(const Expr &e) const;
  /// The buffer an access of `buf` touches: the root buffer of a window
  /// statement of the proc, else `buf` itself.
  Sym root_of(const Sym &buf) const;
  /// Does `code` touch buffer `buf` (read, write or reduce it, directly,
  /// through a window or in a call, or name it or a window of it)? `at` is
  /// the first such place. The one test of "uses this buffer" the checks
  /// share (rfactor, butterfly_sum, reuse_buffer, inline_assign, ...).
  bool touches(const Block &code, const Sym &buf, SrcLoc &at) const;
  bool touches(const Expr &e, const Sym &buf, SrcLoc &at) const;

private:
  struct Env {
    std::map<uint32_t, Expr> vars;    // control parameter -> argument
    std::map<uint32_t, Alias> bufs;   // buffer name -> root buffer
    std::vector<Scope> scopes;
    int depth = 0;
  };
  void block(const Block &b, Env &env, Effects &out) const;
  void stmt(const Stmt &s, Env &env, Effects &out) const;
  void reads(const Expr &e, Env &env, Effects &out) const;
  void access(AccessKind k, const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc,
              const std::string &text, Env &env, Effects &out) const;
  void call(const CallStmt &c, Env &env, Effects &out) const;
  /// The window (or window parameter) `buf` names, or null for a buffer.
  const Alias *alias_of(const Sym &buf, const Env &env) const;
  /// `buf[start...]` as a window of the root buffer (ir/window.h's rule).
  Alias resolve_window(const Sym &buf, const std::vector<bool> &is_slice,
                       const std::vector<Expr> &start, Env &env) const;
  Expr subst(const Expr &e, const Env &env) const;

  std::map<uint32_t, Alias> windows_; // window statements of the proc
  CalleeLookup callees_;
};

/// `e` with each Var whose Sym id is in `m` replaced by its mapped expression.
Expr substitute(const Expr &e, const std::map<uint32_t, Expr> &m);
/// Assert `pred` with its `aligned(...)` conjuncts as `True`: what it says of
/// the sizes alone (an address fact holds for buffers a tool allocates).
Expr size_conditions(const Expr &pred);
/// Does `e` mention Sym `s` (as a Var, a Read's buffer or in an index)?
bool mentions(const Expr &e, const Sym &s);
bool mentions(const Block &b, const Sym &s);

} // namespace exgc::analysis
