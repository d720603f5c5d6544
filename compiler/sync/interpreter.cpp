// interpreter.cpp - sequential walk, thread boxes, barrier counts ---------//
#include "compiler/sync/interpreter.h"

#include "compiler/sync/task_replay.h"

#include <algorithm>
#include <unordered_map>

namespace exgc::sync {
namespace {

struct Stop {}; // unwinds the walk once `hazard_` is set

struct BarState {
  int64_t arrives = 0, awaits = 0;
};

class Interpreter {
public:
  Interpreter(const Program &p, Machine &m, Hazard &h, const RunOptions &o)
      : prog_(p), m_(m), hazard_(h), opts_(o) {
    m_.attach(&tensors_);
  }

  bool run() {
    bind(prog_.body);
    vals_.assign(value_slots_.size(), 0);
    defined_.assign(value_slots_.size(), 0);
    cur_tensor_.assign(tensor_slots_.size(), -1);
    cpu_threads_ = std::make_shared<const ThreadSet>(ThreadSet::all());
    threads_ = cpu_threads_;
    try {
      exec_block(prog_.body);
    } catch (const Stop &) {
      return false;
    }
    return true;
  }

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
  std::vector<TensorInfo> tensors_;
  std::vector<BarState> bars_;
  uint64_t next_bar_ = 0;

  bool in_device_ = false;
  std::vector<int64_t> domain_, lo_, hi_;
  uint64_t task_ = 0, next_task_ = 0, per_task_ = 0;
  ThreadSetP threads_, cpu_threads_;
  uint64_t seq_ = 0;
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
  bool bind(const Block &b) { // returns whether a task loop is inside
    bool has_tasks = false;
    for (const StmtP &sp : b) {
      const Stmt &s = *sp;
      bind(s.value);
      bind(s.hi);
      for (const Expr &d : s.dims)
        bind(d);
      for (const Index &t : s.targets)
        bind(t);
      for (const BarrierRef &r : s.bars) {
        r.sym = tensor_slot(r.name);
        bind(r.idx);
      }
      switch (s.kind) {
      case StmtKind::Let: case StmtKind::Seq: case StmtKind::Tasks: case StmtKind::Threads:
        s.sym = value_slot(s.name);
        break;
      case StmtKind::Data: case StmtKind::Barrier: case StmtKind::Free: case StmtKind::Access:
        s.sym = tensor_slot(s.name);
        break;
      default:
        break;
      }
      if (!s.guard.empty())
        tensor_slot(s.guard);
      bool inner = bind(s.body);
      inner = bind(s.else_body) || inner;
      if (s.kind == StmtKind::Tasks)
        s.innermost = inner ? 0 : 1;
      has_tasks = has_tasks || inner || s.kind == StmtKind::Tasks;
    }
    return has_tasks;
  }

  // --- Errors.
  [[noreturn]] void fail(const Stmt &s, HazardKind k, const std::string &msg) {
    hazard_ = Hazard();
    hazard_.kind = k;
    hazard_.seq = seq_;
    hazard_.stmt = &s;
    hazard_.threads = threads_;
    hazard_.message = msg;
    hazard_.iters = iters_;
    throw Stop();
  }
  [[noreturn]] void fail_element(const Stmt &s, HazardKind k, int t, int64_t lin,
                                 const std::string &msg) {
    hazard_ = Hazard();
    set_element(t, lin);
    hazard_.kind = k;
    hazard_.seq = seq_;
    hazard_.stmt = &s;
    hazard_.threads = threads_;
    hazard_.message = msg;
    hazard_.iters = iters_;
    throw Stop();
  }
  void set_element(int t, int64_t lin) {
    hazard_.tensor_id = t;
    hazard_.linear = lin;
    hazard_.tensor = tensors_[t].name;
    hazard_.element = tensors_[t].unlinear(lin);
  }
  // A machine found a hazard: complete it with what only we know.
  [[noreturn]] void machine_failed(const Stmt &s) {
    hazard_ = m_.hazard();
    hazard_.seq = seq_;
    hazard_.stmt = &s;
    hazard_.threads = threads_;
    hazard_.iters = iters_;
    if (hazard_.tensor_id >= 0) {
      hazard_.tensor = tensors_[hazard_.tensor_id].name;
      hazard_.element = tensors_[hazard_.tensor_id].unlinear(hazard_.linear);
    }
    throw Stop();
  }

  // --- Expressions.
  static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  int64_t eval(const Expr &e, const Stmt &s) {
    switch (e->kind) {
    case ExprKind::Int: return e->value;
    case ExprKind::Var:
      if (!defined_[e->slot])
        fail(s, HazardKind::InvalidProgram, "'" + e->name + "' is not defined");
      return vals_[e->slot];
    case ExprKind::Neg: return -eval(e->a, s);
    case ExprKind::Not: return !eval(e->a, s);
    case ExprKind::And: return eval(e->a, s) && eval(e->b, s);
    case ExprKind::Or: return eval(e->a, s) || eval(e->b, s);
    default: break;
    }
    int64_t a = eval(e->a, s), b = eval(e->b, s);
    switch (e->kind) {
    case ExprKind::Add:
    case ExprKind::Sub:
    case ExprKind::Mul: {
      int64_t r = 0;
      bool over = e->kind == ExprKind::Add   ? __builtin_add_overflow(a, b, &r)
                  : e->kind == ExprKind::Sub ? __builtin_sub_overflow(a, b, &r)
                                             : __builtin_mul_overflow(a, b, &r);
      if (over)
        fail(s, HazardKind::InvalidProgram, "'" + expr_string(e) + "' overflows 64 bits");
      return r;
    }
    case ExprKind::Div:
    case ExprKind::Mod: {
      if (b == 0)
        fail(s, HazardKind::InvalidProgram, "division by zero in '" + expr_string(e) + "'");
      int64_t q = floor_div(a, b);
      return e->kind == ExprKind::Div ? q : a - q * b;
    }
    case ExprKind::Lt: return a < b;
    case ExprKind::Le: return a <= b;
    case ExprKind::Gt: return a > b;
    case ExprKind::Ge: return a >= b;
    case ExprKind::Eq: return a == b;
    case ExprKind::Ne: return a != b;
    default: return 0;
    }
  }

  // --- Threads.
  // One shared object per distinct collective of the current task, so that
  // engines can recognise a repeated sync op by pointer.
  std::unordered_map<size_t, std::vector<ThreadSetP>> interned_;
  uint64_t interned_task_ = UINT64_MAX;
  void intern(ThreadSet &&t) {
    if (interned_task_ != task_) {
      interned_.clear();
      interned_task_ = task_;
    }
    auto &bucket = interned_[t.hash()];
    for (const ThreadSetP &p : bucket)
      if (*p == t) {
        threads_ = p;
        return;
      }
    bucket.push_back(std::make_shared<const ThreadSet>(std::move(t)));
    threads_ = bucket.back();
  }

  void set_threads() {
    if (!in_device_) {
      threads_ = cpu_threads_;
      return;
    }
    ThreadSet t;
    const size_t n = domain_.size();
    // The innermost dims the box covers fully form contiguous runs.
    size_t k = n; // dims [k, n) are full
    while (k > 0 && lo_[k - 1] == 0 && hi_[k - 1] == domain_[k - 1])
      --k;
    int64_t inner = 1;
    for (size_t d = k; d < n; ++d)
      inner *= domain_[d];
    uint64_t base = task_ * per_task_;
    if (k == 0) {
      t.append(base, base + inner);
      intern(std::move(t));
      return;
    }
    // Dim k-1 gives the run length; dims [0, k-1) are enumerated (odometer).
    int64_t run_lo = lo_[k - 1] * inner, run_len = (hi_[k - 1] - lo_[k - 1]) * inner;
    std::vector<int64_t> idx(lo_.begin(), lo_.begin() + (k - 1));
    for (;;) {
      int64_t off = 0, stride = inner * domain_[k - 1];
      for (size_t d = k - 1; d-- > 0;) {
        off += idx[d] * stride;
        stride *= domain_[d];
      }
      t.append(base + off + run_lo, base + off + run_lo + run_len);
      int d = static_cast<int>(k) - 2;
      while (d >= 0) {
        if (++idx[d] < hi_[d])
          break;
        idx[d] = lo_[d];
        --d;
      }
      if (d < 0)
        break;
    }
    intern(std::move(t));
  }

  Ctx ctx(const Stmt &s) { return Ctx{seq_, &s, threads_}; }

  // --- Tensors.
  int live_tensor(const Stmt &s, int sym, const std::string &name) {
    int t = cur_tensor_[sym];
    if (t < 0)
      fail(s, HazardKind::InvalidProgram, "'" + name + "' is not allocated here");
    return t;
  }

  std::vector<int64_t> shape_of(const Stmt &s) {
    std::vector<int64_t> shape;
    for (const Expr &d : s.dims) {
      int64_t v = eval(d, s);
      if (v < 0)
        fail(s, HazardKind::InvalidProgram,
             "extent '" + expr_string(d) + "' of '" + s.name + "' is negative (" +
                 std::to_string(v) + ")");
      shape.push_back(v);
    }
    return shape;
  }

  int new_tensor(const Stmt &s, bool barrier) {
    if (cur_tensor_[s.sym] >= 0)
      fail(s, HazardKind::InvalidProgram, "'" + s.name + "' is already allocated");
    TensorInfo t;
    t.name = s.name;
    t.decl = &s;
    t.is_barrier = barrier;
    t.shape = shape_of(s);
    t.strides.assign(t.shape.size(), 1);
    t.size = 1;
    for (size_t d = t.shape.size(); d-- > 0;) {
      t.strides[d] = t.size;
      // Checked before multiplying, so that huge extents cannot overflow.
      if (t.shape[d] > 0 && t.size > (int64_t(1) << 40) / t.shape[d])
        fail(s, HazardKind::InvalidProgram, "'" + s.name + "' is too large");
      t.size *= t.shape[d];
    }
    if (t.shape.size() > kMaxRank)
      fail(s, HazardKind::InvalidProgram,
           "'" + s.name + "' has more than " + std::to_string(kMaxRank) + " dimensions");
    if (t.size > (int64_t(1) << 40))
      fail(s, HazardKind::InvalidProgram, "'" + s.name + "' is too large");
    t.ring_dim = s.ring_dim;
    t.ring_depth = s.ring_depth;
    tensors_.push_back(std::move(t));
    int id = static_cast<int>(tensors_.size()) - 1;
    return id;
  }

  void exec_data(const Stmt &s) {
    ++seq_;
    ++stats.events;
    int id = new_tensor(s, false);
    TensorInfo &t = tensors_[id];
    if (t.ring_dim >= 0) {
      if (s.guard.empty())
        fail(s, HazardKind::InvalidProgram, "ring buffer '" + s.name + "' needs a guard barrier");
      int g = live_tensor(s, tensor_slots_.at(s.guard), s.guard);
      const TensorInfo &z = tensors_[g];
      if (!z.is_barrier || z.ring_dim < 0 || !z.checked)
        fail(s, HazardKind::InvalidProgram,
             "guard '" + s.guard + "' of '" + s.name + "' is not a checked barrier ring");
      if (z.ring_dim != t.ring_dim || z.ring_depth != t.ring_depth ||
          z.shape.size() > t.shape.size())
        fail(s, HazardKind::InvalidProgram,
             "ring of '" + s.name + "' does not match its guard '" + s.guard + "'");
      for (size_t d = 0; d < z.shape.size(); ++d)
        if (static_cast<int>(d) == z.ring_dim ? t.shape[d] > z.shape[d]
                                              : t.shape[d] != z.shape[d])
          fail(s, HazardKind::InvalidProgram,
               "dimension " + std::to_string(d) + " of '" + s.name +
                   "' does not match its guard '" + s.guard + "'");
      for (int md : s.guard_mcast)
        if (md < 0 || md >= static_cast<int>(z.shape.size()) || md == z.ring_dim)
          fail(s, HazardKind::InvalidProgram,
               "multicast dimension " + std::to_string(md) + " of guard '" + s.guard +
                   "' is not a barrier dimension");
      t.guard = g;
      t.guard_mcast = s.guard_mcast;
    }
    cur_tensor_[s.sym] = id;
    m_.alloc(id, ctx(s));
  }

  void exec_barrier(const Stmt &s) {
    ++seq_;
    ++stats.events;
    int id = new_tensor(s, true);
    TensorInfo &t = tensors_[id];
    t.checked = s.checked;
    t.bar_base = next_bar_;
    next_bar_ += static_cast<uint64_t>(t.size);
    bars_.resize(next_bar_);
    if (s.pre_arrive > 0) {
      if (t.ring_dim < 0)
        fail(s, HazardKind::InvalidProgram, "pre_arrive needs a ring dimension");
      for (int64_t l = 0; l < t.size; ++l)
        if (t.unlinear(l)[t.ring_dim] < s.pre_arrive)
          bars_[t.bar_base + l].arrives = 1;
    }
    cur_tensor_[s.sym] = id;
    if (t.checked)
      m_.alloc(id, ctx(s));
  }

  void exec_free(const Stmt &s) {
    ++seq_;
    ++stats.events;
    int id = live_tensor(s, s.sym, s.name);
    const TensorInfo &t = tensors_[id];
    if (t.checked && !m_.free(id, ctx(s), s.has_check, s.check))
      machine_failed(s);
    if (t.is_barrier) {
      const Stmt &d = *t.decl;
      for (int64_t l = 0; l < t.size; ++l) {
        const BarState &b = bars_[t.bar_base + l];
        if (d.one_shot_arrive && b.arrives != 1)
          fail_element(s, HazardKind::FreeWithoutArrive, id, l,
                       "freed after " + std::to_string(b.arrives) +
                           " arrives; a one-shot barrier needs exactly 1");
        if (d.one_shot_await && b.awaits != 1)
          fail_element(s, HazardKind::FreeWithoutArrive, id, l,
                       "freed after " + std::to_string(b.awaits) +
                           " awaits; a one-shot-await barrier needs exactly 1");
      }
      m_.barriers_freed(t.bar_base, t.bar_base + t.size);
    }
    cur_tensor_[s.sym] = -1;
  }

  // Boxes of one index against a tensor's shape; clips or fails when outside.
  bool index_box(const Stmt &s, const Index &idx, int tid, bool clip, Box &box) {
    const TensorInfo &t = tensors_[tid];
    if (idx.size() != t.shape.size())
      fail(s, HazardKind::InvalidProgram,
           "'" + t.name + "' has " + std::to_string(t.shape.size()) + " dimensions, not " +
               std::to_string(idx.size()));
    box.lo.resize(static_cast<unsigned>(idx.size()));
    box.hi.resize(static_cast<unsigned>(idx.size()));
    for (size_t d = 0; d < idx.size(); ++d) {
      const IndexItem &it = idx[d];
      if (it.whole) {
        box.lo[d] = 0;
        box.hi[d] = t.shape[d];
        continue;
      }
      box.lo[d] = eval(it.lo, s);
      box.hi[d] = it.hi ? eval(it.hi, s) : box.lo[d] + 1;
    }
    if (box.empty())
      return false;
    bool outside = false;
    for (size_t d = 0; d < idx.size(); ++d)
      outside = outside || box.lo[d] < 0 || box.hi[d] > t.shape[d];
    if (!outside)
      return true;
    if (!clip) {
      std::string at = t.name + "[", shape = t.name + "[";
      for (size_t d = 0; d < idx.size(); ++d) {
        at += (d ? ", " : "") + std::to_string(box.lo[d]) +
              (box.hi[d] - box.lo[d] > 1 ? ":" + std::to_string(box.hi[d]) : "");
        shape += (d ? ", " : "") + std::to_string(t.shape[d]);
      }
      fail(s, HazardKind::OutOfBounds, "accessing " + at + "] of allocation " + shape + "]");
    }
    for (size_t d = 0; d < idx.size(); ++d) {
      box.lo[d] = std::max<int64_t>(box.lo[d], 0);
      box.hi[d] = std::min<int64_t>(box.hi[d], t.shape[d]);
    }
    return !box.empty();
  }

  // Appends `b` minus the boxes already in `out`, so that every element of a
  // multicast is accessed once.
  void add_disjoint(std::vector<Box> &out, const Box &b) {
    if (out.empty()) {
      out.push_back(b);
      return;
    }
    std::vector<Box> &pieces = pieces_, &next = next_pieces_;
    pieces.assign(1, b);
    for (const Box &o : out) {
      next.clear();
      for (const Box &p : pieces)
        subtract(p, o, next);
      pieces.swap(next);
    }
    for (Box &p : pieces)
      out.push_back(std::move(p));
  }

public:
  static void subtract(const Box &a, const Box &b, std::vector<Box> &out) {
    const size_t n = a.lo.size();
    for (size_t d = 0; d < n; ++d)
      if (std::max(a.lo[d], b.lo[d]) >= std::min(a.hi[d], b.hi[d])) {
        out.push_back(a);
        return;
      }
    Box rest = a;
    for (size_t d = 0; d < n; ++d) {
      if (rest.lo[d] < b.lo[d]) {
        Box p = rest;
        p.hi[d] = b.lo[d];
        out.push_back(p);
        rest.lo[d] = b.lo[d];
      }
      if (rest.hi[d] > b.hi[d]) {
        Box p = rest;
        p.lo[d] = b.hi[d];
        out.push_back(p);
        rest.hi[d] = b.hi[d];
      }
    }
  }

private:
  // Barrier elements named by barrier expressions (all of one barrier).
  int barrier_elems(const Stmt &s, const std::vector<BarrierRef> &refs,
                    std::vector<uint64_t> &elems, std::vector<int64_t> *home) {
    int tid = -1;
    for (const BarrierRef &r : refs) {
      int t = live_tensor(s, r.sym, r.name);
      if (tid >= 0 && t != tid)
        fail(s, HazardKind::InvalidProgram, "barrier expressions name different barriers");
      tid = t;
    }
    const TensorInfo &t = tensors_[tid];
    if (!t.is_barrier)
      fail(s, HazardKind::InvalidProgram, "'" + t.name + "' is not a barrier");
    if (home)
      home->assign(t.shape.size(), -1);
    std::vector<Box> &boxes = bar_boxes_;
    boxes.clear();
    for (const BarrierRef &r : refs) {
      Box b;
      if (!index_box(s, r.idx, tid, false, b))
        continue;
      if (home)
        for (size_t d = 0; d < r.idx.size(); ++d) {
          if (!r.idx[d].is_point())
            continue;
          if ((*home)[d] >= 0 && (*home)[d] != b.lo[d])
            fail(s, HazardKind::InvalidProgram,
                 "barrier expressions disagree on index " + std::to_string(d));
          (*home)[d] = b.lo[d];
        }
      add_disjoint(boxes, b);
    }
    if (home)
      for (size_t d = 0; d < home->size(); ++d)
        if ((*home)[d] < 0)
          fail(s, HazardKind::InvalidProgram,
               "no barrier expression has a point in dimension " + std::to_string(d));
    for (const Box &b : boxes)
      t.for_each_linear(b, [&](int64_t l) { elems.push_back(t.bar_base + l); });
    std::sort(elems.begin(), elems.end());
    return tid;
  }

  // The mbarrier words of checked barriers are read by Arrive, Await and
  // trailing barriers (reference section 4.1): qual mbar.
  void barrier_read(const Stmt &s, int tid, const std::vector<uint64_t> &elems, bool conv) {
    const TensorInfo &t = tensors_[tid];
    if (!t.checked || elems.empty())
      return;
    AccessEvent &e = bev_; // reused: no allocation per event
    e.ctx = ctx(s);
    e.tensor = tid;
    e.boxes.resize(elems.size());
    const unsigned rank = static_cast<unsigned>(t.shape.size());
    for (size_t i = 0; i < elems.size(); ++i) {
      Box &b = e.boxes[i];
      b.lo.resize(rank);
      b.hi.resize(rank);
      int64_t lin = static_cast<int64_t>(elems[i] - t.bar_base);
      for (unsigned d = 0; d < rank; ++d) {
        b.lo[d] = t.strides[d] ? lin / t.strides[d] : 0;
        lin -= b.lo[d] * t.strides[d];
        b.hi[d] = b.lo[d] + 1;
      }
    }
    e.trailing.clear();
    e.mutate = e.write_only = e.ooo = false;
    e.atomic = 0;
    e.initial = Qual::Mbar;
    e.ext = bit(Qual::Mbar);
    e.conv = conv || !in_device_;
    ++stats.accesses;
    stats.elements += elems.size();
    if (!m_.access(e))
      machine_failed(s);
  }

  // The boxes an access of tensor `tid` gives the engine; false when none
  // (an unchecked tensor, or empty windows).
  bool access_boxes(const Stmt &s, int tid, std::vector<Box> &boxes) {
    boxes.clear();
    if (!tensors_[tid].checked)
      return false;
    for (const Index &idx : s.targets) {
      Box b;
      if (index_box(s, idx, tid, s.clip, b))
        add_disjoint(boxes, b);
    }
    return !boxes.empty();
  }

  void exec_access(const Stmt &s) {
    ++seq_;
    ++stats.events;
    int tid = live_tensor(s, s.sym, s.name);
    if (!in_device_ && !s.conv)
      fail(s, HazardKind::InvalidProgram,
           "a CPU access must be convergent (every thread runs it); add 'conv'");
    AccessEvent &e = ev_;
    e.boxes.clear();
    e.trailing.clear();
    std::vector<uint64_t> &trail = trail_;
    trail.clear();
    int btid = -1;
    if (!s.bars.empty()) {
      btid = barrier_elems(s, s.bars, trail, nullptr);
      if (tensors_[btid].decl->one_shot_arrive)
        for (uint64_t b : trail)
          if (bars_[b].arrives > 0)
            fail_element(s, HazardKind::ArrivedTwice, btid,
                         static_cast<int64_t>(b - tensors_[btid].bar_base),
                         "trailing barrier after the element was arrived; one-shot barriers "
                         "take one Arrive, so the access must come before it");
      for (uint64_t b : trail)
        e.trailing.push_back({b, bars_[b].arrives});
      barrier_read(s, btid, trail, false);
    }
    if (!access_boxes(s, tid, e.boxes))
      return;
    if (recording_ && tid < first_local_tensor_) {
      for (const Box &b : e.boxes)
        record_ok_ = record_ok_ && m_.untouched(tid, b);
      recording_->push_back({&s, tid, e.boxes});
    }
    e.ctx = ctx(s);
    e.tensor = tid;
    e.mutate = s.access != AccessKind::Read;
    e.write_only = s.access == AccessKind::Write;
    e.initial = s.initial;
    e.ext = s.ext;
    e.ooo = s.ooo;
    e.conv = s.conv;
    e.atomic = s.atomic;
    ++stats.accesses;
    for (const Box &b : e.boxes)
      stats.elements += static_cast<uint64_t>(b.volume());
    if (!m_.access(e))
      machine_failed(s);
  }

  void exec_arrive(const Stmt &s) {
    ++seq_;
    ++stats.events;
    std::vector<uint64_t> &elems = elems_;
    std::vector<int64_t> &home = home_;
    elems.clear();
    int tid = barrier_elems(s, s.bars, elems, &home);
    const TensorInfo &t = tensors_[tid];
    uint64_t h = t.bar_base + t.linear(home);
    barrier_read(s, tid, elems, false);
    int64_t k = bars_[h].arrives;
    m_.arrive(ctx(s), s.l1.full, elems, k);
    if (t.decl->one_shot_arrive && k + 1 != 1)
      fail_element(s, HazardKind::ArrivedTwice, tid, t.linear(home),
                   "one-shot barrier arrived " + std::to_string(k + 1) + " times");
    bars_[h].arrives = k + 1;
  }

  void exec_await(const Stmt &s) {
    ++seq_;
    ++stats.events;
    for (const IndexItem &it : s.bars[0].idx)
      if (!it.is_point())
        fail(s, HazardKind::InvalidProgram, "an Await names one barrier element; use points");
    std::vector<uint64_t> &elems = elems_;
    std::vector<int64_t> &home = home_;
    elems.clear();
    int tid = barrier_elems(s, s.bars, elems, &home);
    const TensorInfo &t = tensors_[tid];
    uint64_t b = t.bar_base + t.linear(home);
    barrier_read(s, tid, elems, true);
    BarState &st = bars_[b];
    if (t.decl->one_shot_arrive && st.arrives == 0)
      fail_element(s, HazardKind::NoForwardProgress, tid, t.linear(home),
                   "await before any arrive on a one-shot barrier; in sequential order the "
                   "Arrive must come first");
    if (t.decl->one_shot_await && st.awaits > 0)
      fail_element(s, HazardKind::AwaitedTwice, tid, t.linear(home),
                   "one-shot-await barrier awaited " + std::to_string(st.awaits + 1) + " times");
    m_.await(ctx(s), b, st.arrives - 1 - s.n, s.l2);
    ++st.awaits;
  }

  void exec_loop(const Stmt &s) {
    int64_t lo = eval(s.value, s), hi = eval(s.hi, s);
    int slot = s.sym;
    int64_t saved = vals_[slot];
    char saved_def = defined_[slot];
    iters_.push_back({s.name, 0});
    if (s.kind == StmtKind::Tasks)
      task_vars_.push_back(s.name);
    defined_[slot] = 1;
    for (int64_t i = lo; i < hi; ++i) {
      vals_[slot] = i;
      iters_.back().second = i;
      if (s.kind == StmtKind::Seq) {
        exec_block(s.body);
      } else if (s.kind == StmtKind::Tasks) {
        exec_task(s);
      } else {
        exec_threads_iter(s, i);
      }
    }
    iters_.pop_back();
    if (s.kind == StmtKind::Tasks)
      task_vars_.pop_back();
    vals_[slot] = saved;
    defined_[slot] = saved_def;
  }

  bool box_is_full() const {
    for (size_t d = 0; d < domain_.size(); ++d)
      if (lo_[d] != 0 || hi_[d] != domain_[d])
        return false;
    return true;
  }

  void exec_task(const Stmt &s) {
    if (!in_device_)
      fail(s, HazardKind::InvalidProgram, "a tasks loop must be inside a device block");
    if (!box_is_full())
      fail(s, HazardKind::InvalidProgram, "a tasks loop must not be inside a threads loop");
    if (!s.innermost) {
      exec_block(s.body);
      return;
    }
    uint64_t saved = task_;
    task_ = next_task_++;
    if (task_ >= kAllThreads / std::max<uint64_t>(per_task_, 1))
      fail(s, HazardKind::InvalidProgram, "too many tasks for 62-bit thread ids");
    set_threads();
    if (!replay_task(s))
      run_task(s);
    task_ = saved;
    set_threads();
  }

  // --- Task replay (task_replay.h).
  // A task run in full whose effect other tasks can copy.
  struct TaskTemplate {
    uint64_t task = 0, per_task = 0, seq = 0;
    std::vector<int64_t> params; // the parameters' values (task_replay.h)
    RunStats counts; // what it added to the stats
    // What it allocated (all freed by its end): a replay allocates the same,
    // so that tensor instances and barrier ids match a full run's.
    int first_tensor = 0;
    std::vector<TensorInfo> tensors;
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
  std::vector<OutsideAccess> *recording_ = nullptr; // the template's outside accesses
  int first_local_tensor_ = 0;                      // tensors from here are the task's
  bool record_ok_ = false;

  TaskMemo *memo_of(const Stmt &s) {
    if (!opts_.replay_tasks || !m_.can_replay())
      return nullptr;
    auto it = memos_.find(&s);
    if (it == memos_.end()) {
      it = memos_.emplace(&s, TaskMemo()).first;
      it->second.shape = analyze_task(s, task_vars_);
      for (const std::string &n : it->second.shape.locals)
        it->second.local_slots.push_back(tensor_slots_.at(n));
      for (const std::string &n : it->second.shape.params)
        it->second.param_slots.push_back(value_slots_.at(n));
    }
    return it->second.shape.uniform ? &it->second : nullptr;
  }
  // The parameters' values now; an undefined one fails the task when it
  // runs, so it never matches.
  std::vector<int64_t> param_values(const TaskMemo &m) const {
    std::vector<int64_t> v;
    for (int slot : m.param_slots)
      v.push_back(defined_[slot] ? vals_[slot] : INT64_MIN);
    return v;
  }
  bool locals_free(const TaskMemo &m) const {
    for (int slot : m.local_slots)
      if (cur_tensor_[slot] >= 0)
        return false;
    return true;
  }

  void end_task(const Stmt &s) {
    // End of a device task: its threads join (reference section 2.6).
    ++seq_;
    ++stats.events;
    m_.join(ctx(s));
  }

  // Runs a task in full; captures it as a template when it can be one.
  void run_task(const Stmt &s) {
    TaskMemo *m = memo_of(s);
    const uint64_t base = task_ * per_task_;
    if (!m || m->templates.size() >= kMaxTemplates || m->attempts >= kMaxAttempts ||
        !locals_free(*m) || m_.reaches(base)) {
      exec_block(s.body);
      return end_task(s);
    }
    ++m->attempts;
    TaskTemplate t;
    const RunStats before = stats;
    t.seq = seq_;
    t.params = param_values(*m);
    t.first_bar = next_bar_;
    recording_ = &t.outside;
    record_ok_ = true;
    first_local_tensor_ = static_cast<int>(tensors_.size());
    exec_block(s.body);
    recording_ = nullptr;
    end_task(s);
    if (!record_ok_ || !locals_free(*m))
      return;
    t.first_tensor = first_local_tensor_;
    t.tensors.assign(tensors_.begin() + first_local_tensor_, tensors_.end());
    t.bars = next_bar_ - t.first_bar;
    std::vector<std::pair<int, Box>> boxes;
    for (const OutsideAccess &o : t.outside)
      for (const Box &b : o.boxes)
        boxes.push_back({o.tensor, b});
    t.effect = m_.capture(boxes, base, base + per_task_);
    if (!t.effect)
      return;
    t.task = task_;
    t.per_task = per_task_;
    t.counts.events = stats.events - before.events;
    t.counts.accesses = stats.accesses - before.accesses;
    t.counts.elements = stats.elements - before.elements;
    m->templates.push_back(std::move(t));
  }

  // Replays the task from a template when the conditions of task_replay.h
  // hold; false (and nothing changed) when it must run.
  bool replay_task(const Stmt &s) {
    TaskMemo *m = memo_of(s);
    const uint64_t base = task_ * per_task_;
    if (!m || m->templates.empty() || !locals_free(*m) || m_.reaches(base))
      return false;
    std::vector<OutsideAccess> now;
    std::vector<TensorShift> shifts;
    const std::vector<int64_t> vals = vals_;
    const std::vector<char> defined = defined_;
    const TaskTemplate *use = nullptr;
    const std::vector<int64_t> params = param_values(*m);
    if (light_walk(s, m->shape, now))
      for (const TaskTemplate &t : m->templates)
        if (!use && t.per_task == per_task_ && t.params == params &&
            match_outside(t.outside, now, shifts))
          use = &t;
    for (size_t i = 0; use && i < now.size(); ++i)
      for (const Box &b : now[i].boxes)
        if (!m_.untouched(now[i].tensor, b))
          use = nullptr;
    if (!use) {
      vals_ = vals;
      defined_ = defined;
      return false;
    }
    m_.replay(*use->effect, shifts, static_cast<int64_t>(base - use->task * per_task_),
              static_cast<int64_t>(seq_ - use->seq));
    const int first_tensor = static_cast<int>(tensors_.size());
    for (TensorInfo info : use->tensors) {
      if (info.guard >= use->first_tensor)
        info.guard += first_tensor - use->first_tensor;
      if (info.is_barrier)
        info.bar_base += next_bar_ - use->first_bar;
      tensors_.push_back(std::move(info));
    }
    next_bar_ += use->bars;
    bars_.resize(next_bar_);
    seq_ += use->counts.events;
    stats.events += use->counts.events;
    stats.accesses += use->counts.accesses;
    stats.elements += use->counts.elements;
    ++stats.replayed_tasks;
    return true;
  }

  // The outside accesses of a task, from its lets, loops and ifs only. A
  // program error on the way means the task must run (to report it).
  bool light_walk(const Stmt &s, const TaskShape &shape, std::vector<OutsideAccess> &now) {
    const Hazard keep = hazard_;
    try {
      light_block(s.body, shape, now);
      return true;
    } catch (const Stop &) {
      hazard_ = keep;
      return false;
    }
  }
  void light_block(const Block &b, const TaskShape &shape, std::vector<OutsideAccess> &now) {
    for (const StmtP &sp : b) {
      const Stmt &st = *sp;
      if (!shape.walk.count(&st))
        continue;
      switch (st.kind) {
      case StmtKind::Let:
        vals_[st.sym] = eval(st.value, st);
        defined_[st.sym] = 1;
        break;
      case StmtKind::Seq: case StmtKind::Threads: {
        const int64_t lo = eval(st.value, st), hi = eval(st.hi, st);
        const int64_t saved = vals_[st.sym];
        const char saved_def = defined_[st.sym];
        defined_[st.sym] = 1;
        for (int64_t i = lo; i < hi; ++i) {
          vals_[st.sym] = i;
          light_block(st.body, shape, now);
        }
        vals_[st.sym] = saved;
        defined_[st.sym] = saved_def;
        break;
      }
      case StmtKind::If:
        light_block(eval(st.value, st) ? st.body : st.else_body, shape, now);
        break;
      case StmtKind::Reshape:
        light_block(st.body, shape, now);
        break;
      case StmtKind::Access: {
        OutsideAccess o;
        o.stmt = &st;
        o.tensor = live_tensor(st, st.sym, st.name);
        if (access_boxes(st, o.tensor, o.boxes))
          now.push_back(std::move(o));
        break;
      }
      default:
        break;
      }
    }
  }

  void exec_threads_iter(const Stmt &s, int64_t i) {
    if (!in_device_)
      fail(s, HazardKind::InvalidProgram, "a threads loop must be inside a device block");
    if (s.dim < 0 || s.dim >= static_cast<int>(domain_.size()))
      fail(s, HazardKind::InvalidProgram,
           "threads loop dimension " + std::to_string(s.dim) + " is not in the domain");
    int64_t d_lo = lo_[s.dim], d_hi = hi_[s.dim];
    int64_t a = d_lo + s.offset + i * s.stride, b = a + s.width;
    if (a < d_lo || b > d_hi)
      fail(s, HazardKind::InvalidProgram,
           "threads loop iteration " + std::to_string(i) + " takes threads [" +
               std::to_string(a) + ", " + std::to_string(b) + ") of dimension " +
               std::to_string(s.dim) + ", outside the current box [" + std::to_string(d_lo) +
               ", " + std::to_string(d_hi) + ")");
    lo_[s.dim] = a;
    hi_[s.dim] = b;
    set_threads();
    exec_block(s.body);
    lo_[s.dim] = d_lo;
    hi_[s.dim] = d_hi;
    set_threads();
  }

  void exec_device(const Stmt &s) {
    if (in_device_)
      fail(s, HazardKind::InvalidProgram, "device blocks do not nest");
    in_device_ = true;
    domain_ = s.ints;
    lo_.assign(domain_.size(), 0);
    hi_ = domain_;
    per_task_ = 1;
    for (int64_t d : domain_) {
      if (static_cast<uint64_t>(d) > (uint64_t(1) << 31) / per_task_)
        fail(s, HazardKind::InvalidProgram, "device domain is too large");
      per_task_ *= static_cast<uint64_t>(d);
    }
    task_ = next_task_++;
    set_threads();
    exec_block(s.body);
    in_device_ = false;
    set_threads();
  }

  void exec_reshape(const Stmt &s) {
    if (!in_device_ || s.dim < 0 || s.dim >= static_cast<int>(domain_.size()))
      fail(s, HazardKind::InvalidProgram, "reshape of a dimension that is not in the domain");
    const size_t d = s.dim;
    int64_t prod = 1;
    for (int64_t f : s.ints) {
      if (f > domain_[d] || prod > domain_[d] / f + 1) { // no overflow: prod stays small
        prod = -1;
        break;
      }
      prod *= f;
    }
    if (prod != domain_[d])
      fail(s, HazardKind::InvalidProgram,
           "reshape factors do not multiply to the extent " + std::to_string(domain_[d]) +
               " of dimension " + std::to_string(d));
    // The box [a, b) of dim d must stay a box in the factored dims.
    const int64_t a = lo_[d], b = hi_[d];
    const size_t k = s.ints.size();
    std::vector<int64_t> nlo(k), nhi(k);
    bool ok = false;
    int64_t inner = 1;
    for (size_t j = k; j-- > 0;) {
      int64_t blk = inner * s.ints[j];
      if (a % inner == 0 && b % inner == 0 && a / blk == (b - 1) / blk) {
        int64_t prefix = a / blk;
        for (size_t q = k; q-- > 0;) {
          if (q > j) {
            nlo[q] = 0;
            nhi[q] = s.ints[q];
          } else if (q == j) {
            nlo[q] = (a / inner) % s.ints[q];
            nhi[q] = nlo[q] + (b - a) / inner;
          } else {
            nlo[q] = nhi[q] = prefix % s.ints[q];
            ++nhi[q];
            prefix /= s.ints[q];
          }
        }
        ok = true;
        break;
      }
      inner = blk;
    }
    if (!ok)
      fail(s, HazardKind::InvalidProgram, "the current thread box is not a box after reshape");
    auto sd = domain_, sl = lo_, sh = hi_;
    domain_.erase(domain_.begin() + d);
    lo_.erase(lo_.begin() + d);
    hi_.erase(hi_.begin() + d);
    domain_.insert(domain_.begin() + d, s.ints.begin(), s.ints.end());
    lo_.insert(lo_.begin() + d, nlo.begin(), nlo.end());
    hi_.insert(hi_.begin() + d, nhi.begin(), nhi.end());
    exec_block(s.body);
    domain_ = sd;
    lo_ = sl;
    hi_ = sh;
  }

  void exec_block(const Block &b) {
    for (const StmtP &sp : b)
      exec(*sp);
  }

  void exec(const Stmt &s) {
    switch (s.kind) {
    case StmtKind::Let:
      vals_[s.sym] = eval(s.value, s);
      defined_[s.sym] = 1;
      return;
    case StmtKind::Data: return exec_data(s);
    case StmtKind::Barrier: return exec_barrier(s);
    case StmtKind::Free: return exec_free(s);
    case StmtKind::Access: return exec_access(s);
    case StmtKind::Fence:
      ++seq_;
      ++stats.events;
      m_.fence(ctx(s), s.l1.full, s.l2);
      return;
    case StmtKind::Arrive: return exec_arrive(s);
    case StmtKind::Await: return exec_await(s);
    case StmtKind::Join:
      ++seq_;
      ++stats.events;
      m_.join(ctx(s));
      return;
    case StmtKind::Seq: case StmtKind::Tasks: case StmtKind::Threads:
      return exec_loop(s);
    case StmtKind::Device: return exec_device(s);
    case StmtKind::Reshape: return exec_reshape(s);
    case StmtKind::If:
      if (eval(s.value, s))
        exec_block(s.body);
      else
        exec_block(s.else_body);
      return;
    }
  }
};

} // namespace

bool run_program(const Program &p, Machine &m, Hazard &hazard, RunStats *stats,
                 const RunOptions &opts) {
  Interpreter in(p, m, hazard, opts);
  bool ok = in.run();
  if (stats)
    *stats = in.stats;
  return ok;
}

} // namespace exgc::sync
