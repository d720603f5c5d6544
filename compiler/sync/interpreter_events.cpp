// interpreter_events.cpp - allocations, frees, accesses, arrive and await //
//
// The statements that become engine events: their boxes (clipped or checked
// against the tensor), barrier elements and counts, and the one-shot rules.
#include "compiler/sync/interpreter_impl.h"

namespace exgc::sync::detail {

int Interpreter::live_tensor(const Stmt &s, int sym, const std::string &name) {
  int t = cur_tensor_[sym];
  if (t < 0)
    fail(s, HazardKind::InvalidProgram, "'" + name + "' is not allocated here");
  return t;
}

std::vector<int64_t> Interpreter::shape_of(const Stmt &s) {
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

int Interpreter::new_tensor(const Stmt &s, bool barrier) {
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
  tensors_.add(std::move(t));
  int id = static_cast<int>(tensors_.size()) - 1;
  return id;
}

void Interpreter::exec_data(const Stmt &s) {
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

void Interpreter::exec_barrier(const Stmt &s) {
  ++seq_;
  ++stats.events;
  int id = new_tensor(s, true);
  TensorInfo &t = tensors_[id];
  t.checked = s.checked;
  t.bar_base = next_bar_;
  if (opts_.meter)
    opts_.meter->reserve(static_cast<uint64_t>(t.size) * sizeof(BarState),
                         "barrier '" + s.name + "'");
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

void Interpreter::exec_free(const Stmt &s) {
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

bool Interpreter::index_box(const Stmt &s, const Index &idx, int tid, bool clip, Box &box) {
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
    if (it.hi) {
      box.hi[d] = eval(it.hi, s);
    } else if (__builtin_add_overflow(box.lo[d], 1, &box.hi[d])) {
      // A point at INT64_MAX: no 64-bit box holds it, but it is outside
      // every allocation, never an empty (skipped) access.
      if (clip)
        return false;
      fail(s, HazardKind::OutOfBounds,
           "index " + std::to_string(box.lo[d]) + " of '" + t.name + "' in dimension " +
               std::to_string(d) + " is outside its extent " + std::to_string(t.shape[d]));
    }
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
            (box.hi[d] - 1 > box.lo[d] ? ":" + std::to_string(box.hi[d]) : "");
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

void Interpreter::add_disjoint(std::vector<Box> &out, const Box &b) {
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

int Interpreter::barrier_elems(const Stmt &s, const std::vector<BarrierRef> &refs,
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
    t.for_each_linear(b, [&](int64_t l) {
      tick();
      elems.push_back(t.bar_base + l);
    });
  std::sort(elems.begin(), elems.end());
  return tid;
}

void Interpreter::barrier_read(const Stmt &s, int tid, const std::vector<uint64_t> &elems, bool conv,
                               bool expect_tx) {
  const TensorInfo &t = tensors_[tid];
  if (!t.checked || elems.empty())
    return;
  AccessEvent &e = bev_; // reused: no allocation per event
  refresh_ctx(e.ctx, s);
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
  // An async instruction's trailing barrier raises the phase's transaction
  // count (expect_tx): a write of the barrier word, so that an Arrive that
  // may complete the phase must be ordered after it (else the phase can
  // complete with a count of 0, before the data lands).
  e.mutate = e.write_only = expect_tx;
  e.ooo = false;
  e.atomic = 0;
  e.initial = Qual::Mbar;
  e.ext = bit(Qual::Mbar);
  e.conv = conv || !in_device_;
  ++stats.accesses;
  stats.elements += elems.size();
  if (!m_.access(e))
    machine_failed(s);
}

bool Interpreter::access_boxes(const Stmt &s, int tid, std::vector<Box> &boxes) {
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

void Interpreter::exec_access(const Stmt &s) {
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
    // One elected thread raises it for the collective that issues the
    // instruction: the record is the collective's (convergent).
    barrier_read(s, btid, trail, true, /*expect_tx=*/true);
  }
  if (!access_boxes(s, tid, e.boxes))
    return;
  if (probe_)
    note_touched(tid, e.boxes);
  if (recording_ && tid < first_local_tensor_) {
    for (const Box &b : e.boxes)
      record_ok_ = record_ok_ && m_.untouched(tid, b);
    recording_->push_back({&s, tid, e.boxes});
  }
  refresh_ctx(e.ctx, s);
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

int Interpreter::sync_barrier(const Stmt &s, bool await, uint64_t &home_elem) {
  ++seq_;
  ++stats.events;
  if (await)
    for (const IndexItem &it : s.bars[0].idx)
      if (!it.is_point())
        fail(s, HazardKind::InvalidProgram, "an Await names one barrier element; use points");
  elems_.clear();
  int tid = barrier_elems(s, s.bars, elems_, &home_);
  const TensorInfo &t = tensors_[tid];
  home_elem = t.bar_base + t.linear(home_);
  return tid;
}

void Interpreter::exec_arrive(const Stmt &s) {
  uint64_t h;
  int tid = sync_barrier(s, false, h);
  barrier_read(s, tid, elems_, false);
  const TensorInfo &t = tensors_[tid];
  int64_t k = bars_[h].arrives;
  m_.arrive(ctx(s), s.l1.full, elems_, k);
  if (t.decl->one_shot_arrive && k + 1 != 1)
    fail_element(s, HazardKind::ArrivedTwice, tid, t.linear(home_),
                 "one-shot barrier arrived " + std::to_string(k + 1) + " times");
  bars_[h].arrives = k + 1;
}

void Interpreter::exec_await(const Stmt &s) {
  uint64_t b;
  int tid = sync_barrier(s, true, b);
  const TensorInfo &t = tensors_[tid];
  BarState &st = bars_[b];
  if (t.decl->one_shot_arrive && st.arrives == 0)
    fail_element(s, HazardKind::NoForwardProgress, tid, t.linear(home_),
                 "await before any arrive on a one-shot barrier; in sequential order the "
                 "Arrive must come first");
  if (t.decl->one_shot_await && st.awaits > 0)
    fail_element(s, HazardKind::AwaitedTwice, tid, t.linear(home_),
                 "one-shot-await barrier awaited " + std::to_string(st.awaits + 1) + " times");
  m_.await(ctx(s), b, st.arrives - 1 - s.n, s.l2);
  ++st.awaits;
  // The waiting threads read the barrier word as the phase completes: after
  // what the Await orders for them (an expect_tx before the phase's Arrive).
  barrier_read(s, tid, elems_, true);
}

} // namespace exgc::sync::detail
