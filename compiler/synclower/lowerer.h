// lowerer.h - the walk that lowers one proc (private) ----------------------//
// Owns: Lowerer, the one walk over a proc that lower_proc (lower.h) runs,
// and the buffers, views and coordinates it keeps. This is its declaration;
// its bodies are split over lower.cpp (the entry, the output and the walk
// over statements: loops, thread loops, warps, device functions),
// lower_buffers.cpp (root buffers, windows as views of them, coordinates and
// the accesses made through them), lower_barriers.cpp (allocations and their
// ends, barriers, Fence, Arrive and Await) and lower_calls.cpp (instruction
// calls and what their behaviours do with each argument).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compiler/analysis/gpu_names.h"
#include "compiler/analysis/memories.h"
#include "compiler/synclower/control.h"
#include "compiler/synclower/lower.h"

namespace exgc::synclower::lower_detail {

/// A root buffer: a proc argument or an allocation.
struct Buffer {
  std::string name; // in the sync program
  const analysis::MemoryInfo *mem = nullptr;
  std::vector<Expr> shape;
  bool tracked = false; // has a history in the sync program
};

/// A window name over a root buffer: root dimension d is the view's next
/// dimension shifted by start[d] (a slice), or the fixed index start[d].
struct View {
  Sym root;
  std::vector<bool> is_slice;
  std::vector<Expr> start;
};

/// One coordinate as an access gives it: a point, or a slice [lo, hi) where a
/// null bound is the dimension's start or end.
struct Coord {
  bool slice = false;
  Expr lo, hi;
};

class Lowerer {
public:
  Lowerer(const ProcNode &proc, const gpu::GpuFacts &facts, const gpu::CalleeLookup &callee,
          const SourceManager &sources, DiagEngine &diag, Lowered &out)
      : proc_(proc), facts_(facts), callee_(callee), sources_(sources), diag_(diag), out_(out) {}

  bool run(const std::map<std::string, int64_t> &sizes);

private:
  // --- Output -------------------------------------------------------------

  sync::StmtP make(sync::StmtKind k, SrcLoc loc);
  sync::Stmt *emit(sync::StmtP s);
  /// Lowers `body` into the block of `s`, then emits `s`.
  void emit_with_body(sync::StmtP s, const Block &body);

  bool unsupported(SrcLoc loc, const std::string &what);
  sync::Expr control(const Expr &e);

  // --- Buffers ------------------------------------------------------------

  /// Root buffers that some statement writes (directly, through a window or
  /// as an instruction's argument): only they need histories.
  void find_written(const Block &b);
  Sym root_of(const Sym &buf) const;
  static Sym arg_buffer(const Expr &arg);

  /// What an instruction's behaviour does with one data parameter.
  struct ParamUse {
    const Arg *param = nullptr;
    bool read = false, written = false, reduced = false; // written: by `=`
  };
  /// What `instr`'s behaviour does with each parameter (by Sym id), worked
  /// out once per instruction: both walks of the proc ask for every call.
  const std::map<uint32_t, ParamUse> &param_uses(const ProcNode &instr);

  /// The data arguments of an instruction call with what the behaviour
  /// does with each; empty when the callee is not an instruction.
  std::vector<std::pair<ParamUse, Expr>> instr_data_args(const CallStmt &c);

  void declare_data(const Sym &name, const Type &type, SrcLoc loc);

  /// The root buffer of `buf`, with `coords` (in `buf`'s coordinates)
  /// turned into the root's; false for an open slice end of a shifted view,
  /// which the front end does not produce.
  bool to_root(Sym &buf, std::vector<Coord> &coords) const;

  /// The root buffer of `buf` (null when not one this walk declared), with
  /// `coords` turned into its coordinates.
  const Buffer *resolve(const Sym &buf, std::vector<Coord> &coords);

  /// Root coordinates as sync index items; `shape` closes open slices (none
  /// for barriers, whose slices the front end writes closed or whole).
  std::vector<sync::IndexItem> index(const std::vector<Coord> &coords,
                                     const std::vector<Expr> &shape = {});
  static std::vector<Coord> points(const std::vector<Expr> &idx);
  static std::vector<Coord> window_coords(const WindowExpr &w);

  struct AccessFlags {
    sync::AccessKind kind = sync::AccessKind::Read;
    analysis::InstrTimeline timeline = analysis::InstrTimeline::CudaInOrder;
    bool ooo = false, clip = false;
    bool atomic = false; // an `atomic:` reduction: commutes with other atomic ones
    std::optional<bool> convergent; // else the qual's default
    std::vector<sync::BarrierRef> bars;
  };

  /// An access of `buf` at `coords`; nothing for untracked memory.
  void access(const Sym &buf, std::vector<Coord> coords, SrcLoc loc, const AccessFlags &f);

  /// The reads of tracked memory in `e`, by one thread in order.
  void reads(const Expr &e, SrcLoc loc);

  // --- Statements ---------------------------------------------------------

  void lower_block(const Block &b);
  void free_buffer(const Sym &name, SrcLoc loc);
  void lower_stmt(const Stmt &s);
  void lower_stmt_here(const Stmt &s);
  void store(const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs, sync::AccessKind k,
             SrcLoc loc);
  void alloc(const Alloc *a);
  void window(const WindowStmt *w);
  void loop(const For *f);
  void threads_loop(const For *f);

  /// `threads name in 0..hi` over `grid`'s dimension, with `body` inside.
  /// The unit may refine the grid (256 threads as 8 warps x 32 lanes): one
  /// `reshape` per split dimension around it, last first so indices stay put.
  void narrow(const gpu::GridNarrowing &grid, const std::string &name, sync::Expr hi,
              const Block &body, SrcLoc loc);

  /// Which dimensions of `from` `to` splits, and into what, last first.
  static std::vector<std::pair<size_t, std::vector<int64_t>>>
  splits(const std::vector<int64_t> &from, const std::vector<int64_t> &to);

  void branch(const If *i);
  void with(const With *w);
  void warps(const With *w);
  void device_function(const With *w);
  std::optional<sync::SyncTl> timeline(const std::string &name, SrcLoc loc);
  std::optional<sync::BarrierRef> barrier_ref(const Expr &e);
  void fence(const Fence *f);
  void arrive(const Arrive *a);
  void await(const Await *a);

  /// An instruction call: one access per argument in tracked memory, made on
  /// the instruction's timeline, with its trailing barriers.
  void call(const CallStmt *c);

  const ProcNode &proc_;
  const gpu::GpuFacts &facts_;
  const gpu::CalleeLookup &callee_;
  const SourceManager &sources_;
  DiagEngine &diag_;
  Lowered &out_;
  ControlNames names_;
  std::map<uint32_t, Buffer> bufs_;
  std::map<uint32_t, View> views_;
  std::map<uint32_t, std::string> barriers_;
  std::set<uint32_t> mbarriers_; // CudaMbarrier allocations, by Sym id
  std::set<uint32_t> written_;
  std::map<const ProcNode *, std::map<uint32_t, ParamUse>> param_uses_;
  sync::Block *block_ = nullptr;
  const gpu::KernelFacts *kernel_ = nullptr; // null on the host
  const gpu::CallSite *call_site_ = nullptr; // of the inlined call being lowered
  bool ok_ = true;
};

} // namespace exgc::synclower::lower_detail
