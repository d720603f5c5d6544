// interpreter_replay.cpp - tasks, run in full or replayed ------------------//
//
// A task runs in full, maybe as a template, or is replayed from one when the
// conditions of task_replay.h hold.
#include "compiler/sync/interpreter_impl.h"

namespace exgc::sync::detail {

void Interpreter::exec_task(const Stmt &s) {
  if (!in_device_)
    fail(s, HazardKind::InvalidProgram, "a tasks loop must be inside a device block");
  if (!box_is_full())
    fail(s, HazardKind::InvalidProgram, "a tasks loop must not be inside a threads loop");
  if (!s.innermost) {
    exec_block(s.body);
    return;
  }
  const uint64_t saved = task_, saved_base = thread_base_;
  if (!start_task())
    fail(s, HazardKind::InvalidProgram, "too many tasks for 62-bit thread ids");
  set_threads();
  // A template or a replay needs a task that starts where nothing outside
  // it can reach (task_replay.h, conditions 1 and 4); decided once here.
  TaskMemo *m = memo_of(s);
  if (m && (!locals_free(*m) || m_.reaches(thread_base_)))
    m = nullptr;
  if (!m || !replay_task(s, *m))
    run_task(s, m);
  task_ = saved;
  thread_base_ = saved_base;
  set_threads();
}

Interpreter::TaskMemo *Interpreter::memo_of(const Stmt &s) {
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

std::vector<int64_t> Interpreter::param_values(const TaskMemo &m) const {
  std::vector<int64_t> v;
  for (int slot : m.param_slots)
    v.push_back(defined_[slot] ? vals_[slot] : INT64_MIN);
  return v;
}

bool Interpreter::locals_free(const TaskMemo &m) const {
  for (int slot : m.local_slots)
    if (cur_tensor_[slot] >= 0)
      return false;
  return true;
}

void Interpreter::end_task(const Stmt &s) {
  // End of a device task: its threads join (reference section 2.6).
  ++seq_;
  ++stats.events;
  m_.join(ctx(s));
}

void Interpreter::run_task(const Stmt &s, TaskMemo *m) {
  const uint64_t base = thread_base_;
  if (!m || m->templates.size() >= kMaxTemplates || m->attempts >= kMaxAttempts) {
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
  t.first_tensor = static_cast<size_t>(first_local_tensor_);
  t.end_tensor = tensors_.size();
  t.bars = next_bar_ - t.first_bar;
  std::vector<std::pair<int, Box>> boxes;
  for (const OutsideAccess &o : t.outside)
    for (const Box &b : o.boxes)
      boxes.push_back({o.tensor, b});
  t.effect = m_.capture(boxes, base, base + per_task_);
  if (!t.effect)
    return;
  t.task = task_;
  t.thread_base = base;
  t.per_task = per_task_;
  t.counts.events = stats.events - before.events;
  t.counts.accesses = stats.accesses - before.accesses;
  t.counts.elements = stats.elements - before.elements;
  m->templates.push_back(std::move(t));
}

bool Interpreter::replay_task(const Stmt &s, const TaskMemo &m) {
  const uint64_t base = thread_base_;
  if (m.templates.empty())
    return false;
  // Reused from task to task: a tile's thousands of boxes keep their buffers.
  std::vector<OutsideAccess> &now = light_now_;
  std::vector<TensorShift> shifts;
  const std::vector<int64_t> vals = vals_;
  const std::vector<char> defined = defined_;
  const TaskTemplate *use = nullptr;
  const std::vector<int64_t> params = param_values(m);
  if (light_walk(s, m.shape, now))
    for (const TaskTemplate &t : m.templates)
      if (!use && t.per_task == per_task_ && t.params == params &&
          match_outside(t.outside, now, shifts))
        use = &t;
  if (use && !outside_untouched(now))
    use = nullptr;
  if (!use) {
    vals_ = vals;
    defined_ = defined;
    return false;
  }
  m_.replay(*use->effect, shifts, static_cast<int64_t>(base - use->thread_base),
            static_cast<int64_t>(seq_ - use->seq));
  // The task's own tensors were allocated and freed inside it, so no later
  // event names them: only their ids must advance as a full run's would
  // (copying the template's entries, thousands of times, was a fifth of a
  // 16,384-task GEMV's check; now the ids share them).
  tensors_.add_aliases(use->first_tensor, use->end_tensor - use->first_tensor, 1);
  next_bar_ += use->bars;
  bars_.resize(next_bar_);
  seq_ += use->counts.events;
  stats.events += use->counts.events;
  stats.accesses += use->counts.accesses;
  stats.elements += use->counts.elements;
  ++stats.replayed_tasks;
  return true;
}

bool Interpreter::outside_untouched(const std::vector<OutsideAccess> &now) {
  // Per tensor: when its boxes tile their hull (disjoint, as a tile written
  // element by element is), the hull is untouched exactly when they all
  // are, and one query answers for thousands of boxes.
  std::vector<std::pair<int, Box>> hulls;
  std::vector<int64_t> volumes;
  for (const OutsideAccess &o : now)
    for (const Box &b : o.boxes) {
      size_t i = 0;
      while (i < hulls.size() && hulls[i].first != o.tensor)
        ++i;
      if (i == hulls.size()) {
        hulls.push_back({o.tensor, b});
        volumes.push_back(0);
      }
      Box &h = hulls[i].second;
      for (size_t d = 0; d < b.lo.size(); ++d) {
        h.lo[d] = std::min(h.lo[d], b.lo[d]);
        h.hi[d] = std::max(h.hi[d], b.hi[d]);
      }
      volumes[i] += b.volume();
    }
  for (size_t i = 0; i < hulls.size(); ++i) {
    if (volumes[i] == hulls[i].second.volume()) {
      if (!m_.untouched(hulls[i].first, hulls[i].second))
        return false;
      continue;
    }
    for (const OutsideAccess &o : now)
      if (o.tensor == hulls[i].first)
        for (const Box &b : o.boxes)
          if (!m_.untouched(o.tensor, b))
            return false;
  }
  return true;
}

bool Interpreter::light_walk(const Stmt &s, const TaskShape &shape, std::vector<OutsideAccess> &now) {
  const Hazard keep = hazard_;
  light_count_ = 0;
  try {
    light_block(s.body, shape, now);
    now.resize(light_count_);
    return true;
  } catch (const Stop &) {
    hazard_ = keep;
    return false;
  }
}

void Interpreter::light_block(const Block &b, const TaskShape &shape, std::vector<OutsideAccess> &now) {
  auto in = shape.walk_in.find(&b);
  if (in == shape.walk_in.end())
    return;
  for (const Stmt *sp : in->second) {
    const Stmt &st = *sp;
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
      if (light_count_ == now.size())
        now.emplace_back();
      OutsideAccess &o = now[light_count_];
      o.stmt = &st;
      o.tensor = live_tensor(st, st.sym, st.name);
      o.boxes.clear();
      if (access_boxes(st, o.tensor, o.boxes))
        ++light_count_;
      break;
    }
    default:
      break;
    }
  }
}

} // namespace exgc::sync::detail
