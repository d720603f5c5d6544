// interpreter_impl.h - the interpreter's walker (private to the interpreter) //
//
// Owns Interpreter, the walk behind run_program (interpreter.h): its state,
// and where each part lives -- interpreter.cpp (binding, errors, expressions,
// thread boxes, loops, device blocks, dispatch), interpreter_events.cpp
// (allocations, frees, accesses, barrier elements, arrive and await) and
// interpreter_replay.cpp (tasks, and their replay: task_replay.h).
#ifndef EXGC_SYNC_INTERPRETER_IMPL_H
#define EXGC_SYNC_INTERPRETER_IMPL_H

#include "compiler/sync/interpreter.h"
#include "compiler/sync/loop_replay.h"
#include "compiler/sync/task_replay.h"
#include "compiler/support/floor_div.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace exgc::sync::detail {

struct Stop {}; // unwinds the walk once `hazard_` is set

struct BarState {
  int64_t arrives = 0, awaits = 0;
};

class Interpreter {
public:
  Interpreter(const Program &p, Machine &m, Hazard &h, const RunOptions &o)
      : prog_(p), m_(m), hazard_(h), opts_(o) {
    m_.attach(&tensors_);
    m_.set_meter(o.meter);
  }

  bool run();

  RunStats stats;

private:
  const Program &prog_;
  Machine &m_;
  Hazard &hazard_;
  RunOptions opts_;

  std::unordered_map<std::string, int> value_slots_, tensor_slots_;
  std::vector<int64_t> vals_;
  std::vector<char> defined_;
  std::vector<int> cur_tensor_;
  TensorTable tensors_;
  std::vector<BarState> bars_;
  uint64_t next_bar_ = 0;

  bool in_device_ = false;
  std::vector<int64_t> domain_, lo_, hi_;
  uint64_t task_ = 0, next_task_ = 0, per_task_ = 0;
  // Thread ids of the current task start at thread_base_; each new task (of
  // any device block, whatever its width) takes ids past every earlier one.
  uint64_t thread_base_ = 0, next_thread_base_ = 0;
  /// Numbers a new task and gives it fresh thread ids; false when ids run out.
  bool start_task();
  ThreadSetP threads_, cpu_threads_;
  uint64_t seq_ = 0;
  const Stmt *running_ = nullptr; // the statement a budget failure points at
  void tick() {
    if (opts_.meter)
      opts_.meter->tick();
  }
  std::vector<std::pair<std::string, int64_t>> iters_;
  AccessEvent ev_, bev_;        // reused event buffers
  std::vector<uint64_t> trail_;
  // Scratch buffers of barrier_elems, add_disjoint and the sync statements,
  // reused so that no event allocates.
  std::vector<uint64_t> elems_;
  std::vector<int64_t> home_;
  std::vector<Box> bar_boxes_, pieces_, next_pieces_;

  // --- Binding: names to slots, once, so the walk does no string lookups.
  int value_slot(const std::string &n) {
    auto it = value_slots_.emplace(n, static_cast<int>(value_slots_.size()));
    return it.first->second;
  }
  int tensor_slot(const std::string &n) {
    auto it = tensor_slots_.emplace(n, static_cast<int>(tensor_slots_.size()));
    return it.first->second;
  }
  void bind(const Expr &e) {
    if (!e)
      return;
    if (e->kind == ExprKind::Var)
      e->slot = value_slot(e->name);
    bind(e->a);
    bind(e->b);
  }
  void bind(const Index &idx) {
    for (const IndexItem &it : idx) {
      bind(it.lo);
      bind(it.hi);
    }
  }
  bool bind(const Block &b); // returns whether a task loop is inside

  // --- Errors.
  [[noreturn]] void fail(const Stmt &s, HazardKind k, const std::string &msg);
  [[noreturn]] void fail_element(const Stmt &s, HazardKind k, int t, int64_t lin,
                                 const std::string &msg);
  void set_element(int t, int64_t lin);
  // A machine found a hazard: complete it with what only we know.
  [[noreturn]] void machine_failed(const Stmt &s);

  // --- Expressions.
  int64_t eval(const Expr &e, const Stmt &s);

  // --- Threads.
  // One shared object per distinct collective of the current task, so that
  // engines can recognise a repeated sync op by pointer.
  std::unordered_map<size_t, std::vector<ThreadSetP>> interned_;
  uint64_t interned_task_ = UINT64_MAX;
  void intern(ThreadSet &&t);
  void set_threads();
  Ctx ctx(const Stmt &s) { return Ctx{seq_, &s, threads_}; }
  // ctx(s) into a reused event's Ctx: a thread's run of accesses keeps its
  // collective, so its shared pointer is copied only when it changes.
  void refresh_ctx(Ctx &c, const Stmt &s) {
    c.seq = seq_;
    c.stmt = &s;
    if (c.threads != threads_)
      c.threads = threads_;
  }

  // --- Tensors.
  int live_tensor(const Stmt &s, int sym, const std::string &name);
  std::vector<int64_t> shape_of(const Stmt &s);
  int new_tensor(const Stmt &s, bool barrier);
  void exec_data(const Stmt &s);
  void exec_barrier(const Stmt &s);
  void exec_free(const Stmt &s);

  // Boxes of one index against a tensor's shape; clips or fails when outside.
  bool index_box(const Stmt &s, const Index &idx, int tid, bool clip, Box &box);

  // Appends `b` minus the boxes already in `out`, so that every element of a
  // multicast is accessed once.
  void add_disjoint(std::vector<Box> &out, const Box &b);

  // Barrier elements named by barrier expressions (all of one barrier).
  int barrier_elems(const Stmt &s, const std::vector<BarrierRef> &refs,
                    std::vector<uint64_t> &elems, std::vector<int64_t> *home);

  // The mbarrier words of checked barriers are read by Arrive, Await and
  // trailing barriers (reference section 4.1): qual mbar.
  void barrier_read(const Stmt &s, int tid, const std::vector<uint64_t> &elems, bool conv,
                    bool expect_tx = false);

  // The boxes an access of tensor `tid` gives the engine; false when none
  // (an unchecked tensor, or empty windows).
  bool access_boxes(const Stmt &s, int tid, std::vector<Box> &boxes);
  void exec_access(const Stmt &s);
  // An Arrive's or Await's event: its barrier elements (in elems_), home
  // element and the barrier-word read; returns the barrier's tensor.
  int sync_barrier(const Stmt &s, bool await, uint64_t &home_elem);
  void exec_arrive(const Stmt &s);
  void exec_await(const Stmt &s);
  void exec_loop(const Stmt &s);
  bool box_is_full() const;

  void exec_task(const Stmt &s);

  // --- Task replay (task_replay.h).
  // A task run in full whose effect other tasks can copy.
  struct TaskTemplate {
    uint64_t task = 0, per_task = 0, seq = 0, thread_base = 0;
    std::vector<int64_t> params; // the parameters' values (task_replay.h)
    RunStats counts; // what it added to the stats
    // What it allocated (all freed by its end), tensor ids [first_tensor,
    // end_tensor): a replay allocates as many, so that tensor instances and
    // barrier ids match a full run's.
    size_t first_tensor = 0, end_tensor = 0;
    uint64_t first_bar = 0, bars = 0;
    std::vector<OutsideAccess> outside;
    std::unique_ptr<TaskEffect> effect;
  };
  // Edge tiles (clipped boxes) differ from inner ones: a few templates each.
  static constexpr size_t kMaxTemplates = 4;
  static constexpr int kMaxAttempts = 8;
  struct TaskMemo {
    TaskShape shape;
    std::vector<int> local_slots, param_slots;
    int attempts = 0; // templates tried
    std::vector<TaskTemplate> templates;
  };
  std::unordered_map<const Stmt *, TaskMemo> memos_;
  std::vector<std::string> task_vars_; // iterators of the tasks loops we are in
  struct TaskRange {
    int64_t lo, hi;
    size_t iter; // its entry in iters_
  };
  std::vector<TaskRange> task_ranges_; // and their bounds
  // Where a run stopped by its budget had got to: the task, the time, the memory.
  std::string reached() const;
  std::vector<OutsideAccess> *recording_ = nullptr; // the template's outside accesses
  int first_local_tensor_ = 0;                      // tensors from here are the task's
  bool record_ok_ = false;

  TaskMemo *memo_of(const Stmt &s);
  // The parameters' values now; an undefined one fails the task when it
  // runs, so it never matches.
  std::vector<int64_t> param_values(const TaskMemo &m) const;
  bool locals_free(const TaskMemo &m) const;

  void end_task(const Stmt &s);

  // Runs a task in full; with `m` (the task starts isolated), captures it as
  // a template when it can be one.
  void run_task(const Stmt &s, TaskMemo *m);

  // Replays the task (which starts isolated) from one of `m`'s templates when
  // the remaining conditions of task_replay.h hold; false (and nothing
  // changed) when it must run.
  bool replay_task(const Stmt &s, const TaskMemo &m);
  // Condition 3 of task_replay.h: every box of `now` is untouched.
  bool outside_untouched(const std::vector<OutsideAccess> &now);

  // The outside accesses of a task, from its lets, loops and ifs only. A
  // program error on the way means the task must run (to report it).
  // Fills `now` (its first light_count_ entries, then resized) with the
  // task's outside accesses.
  bool light_walk(const Stmt &s, const TaskShape &shape, std::vector<OutsideAccess> &now);
  std::vector<OutsideAccess> light_now_;
  size_t light_count_ = 0;
  void light_block(const Block &b, const TaskShape &shape, std::vector<OutsideAccess> &now);
  // --- Loop replay (loop_replay.h, interpreter_loops.cpp).
  struct LoopMemo {
    LoopShape shape;
    int skipped = 0, not_periodic = 0; // instances that skipped, that probed in vain
  };
  // What one watched iteration did.
  struct Probe {
    bool ok = false;
    std::vector<std::pair<int, Box>> area; // outside tensors touched: a bounding box each
    std::vector<uint64_t> words;           // their histories after it (Machine::iteration_words)
    RunStats counts;
    size_t first_tensor = 0, tensors = 0;   // tensors it allocated (and freed)
    size_t first_recorded = 0, recorded = 0; // its entries in the task template's record
    bool repeats(const Probe &prev) const;
  };
  static constexpr int64_t kMinTrips = 4;
  static constexpr int kMaxProbes = 8;    // iterations watched per instance
  static constexpr int kMaxVainLoops = 3; // instances without a skip before giving up
  std::unordered_map<const Stmt *, LoopMemo> loop_memos_;
  Probe *probe_ = nullptr; // the iteration being watched (one loop at a time)
  LoopMemo *loop_memo_of(const Stmt &s, int64_t trips);
  void exec_seq(const Stmt &s, int64_t lo, int64_t hi);
  // Runs one iteration of `s` while watching it.
  void probe_iteration(const Stmt &s, Probe &p);
  void note_touched(int tid, const std::vector<Box> &boxes);
  // Skips `left` iterations after the one `p` watched.
  bool skip_iterations(const Probe &p, int64_t left);

  void exec_threads_iter(const Stmt &s, int64_t i);
  void exec_device(const Stmt &s);
  void exec_reshape(const Stmt &s);
  void exec_block(const Block &b) {
    for (const StmtP &sp : b)
      exec(*sp);
  }

  void exec(const Stmt &s);
};

} // namespace exgc::sync::detail

#endif
