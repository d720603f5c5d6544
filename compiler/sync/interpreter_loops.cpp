// interpreter_loops.cpp - seq loops, and skipping their repeated iterations //
//
// A periodic loop (loop_replay.h) has its first iterations watched: each
// leaves the histories of the outside boxes it touched as canonical words.
// When an iteration leaves the words the previous one left, changed no
// older record and issued as many events, the rest of the loop would
// repeat it exactly, so it is skipped: its event counts, tensor ids and
// the event numbers of the entries it made advance as a full run's would.
#include "compiler/sync/interpreter_impl.h"

namespace exgc::sync::detail {

Interpreter::LoopMemo *Interpreter::loop_memo_of(const Stmt &s, int64_t trips) {
  if (!opts_.replay_loops || !m_.can_replay_loops() || probe_ || trips < kMinTrips)
    return nullptr;
  auto it = loop_memos_.find(&s);
  if (it == loop_memos_.end()) {
    it = loop_memos_.emplace(&s, LoopMemo()).first;
    it->second.shape = analyze_loop(s);
  }
  LoopMemo &m = it->second;
  if (!m.shape.periodic || (m.skipped == 0 && m.not_periodic >= kMaxVainLoops))
    return nullptr;
  return &m;
}

void Interpreter::exec_seq(const Stmt &s, int64_t lo, int64_t hi) {
  LoopMemo *m = hi > lo ? loop_memo_of(s, hi - lo) : nullptr;
  Probe a, b;
  Probe *prev = &a, *cur = &b;
  int probes = 0;
  for (int64_t i = lo; i < hi; ++i) {
    running_ = &s; // an empty body ticks here only
    tick();
    vals_[s.sym] = i;
    iters_.back().second = i;
    if (!m || probes == kMaxProbes) {
      exec_block(s.body);
      continue;
    }
    ++probes;
    probe_iteration(s, *cur);
    if (i + 1 < hi && cur->repeats(*prev) && skip_iterations(*cur, hi - 1 - i)) {
      ++m->skipped;
      return;
    }
    std::swap(prev, cur);
  }
  if (m)
    ++m->not_periodic;
}

void Interpreter::probe_iteration(const Stmt &s, Probe &p) {
  const RunStats before = stats;
  p.area.clear();
  p.words.clear();
  p.first_tensor = tensors_.size();
  p.first_recorded = recording_ ? recording_->size() : 0;
  m_.begin_iteration(seq_);
  probe_ = &p;
  try {
    exec_block(s.body);
  } catch (...) {
    probe_ = nullptr;
    throw;
  }
  probe_ = nullptr;
  p.counts.events = stats.events - before.events;
  p.counts.accesses = stats.accesses - before.accesses;
  p.counts.elements = stats.elements - before.elements;
  p.tensors = tensors_.size() - p.first_tensor;
  p.recorded = recording_ ? recording_->size() - p.first_recorded : 0;
  // Everything it allocated is gone again (the analysis only lets a body
  // allocate what it frees, but an `if` may skip a free).
  p.ok = true;
  for (int id : cur_tensor_)
    if (id >= static_cast<int>(p.first_tensor))
      p.ok = false;
  p.ok = p.ok && m_.iteration_words(p.area, p.words);
  m_.end_iteration();
}

void Interpreter::note_touched(int tid, const std::vector<Box> &boxes) {
  if (tid >= static_cast<int>(probe_->first_tensor))
    return; // the iteration's own tensor: freed before it ends
  for (const Box &b : boxes) {
    auto it = std::find_if(probe_->area.begin(), probe_->area.end(),
                           [&](const std::pair<int, Box> &a) { return a.first == tid; });
    if (it == probe_->area.end()) {
      probe_->area.push_back({tid, b});
      continue;
    }
    for (size_t d = 0; d < b.lo.size(); ++d) {
      it->second.lo[d] = std::min(it->second.lo[d], b.lo[d]);
      it->second.hi[d] = std::max(it->second.hi[d], b.hi[d]);
    }
  }
}

bool Interpreter::Probe::repeats(const Probe &prev) const {
  if (!ok || !prev.ok || tensors != prev.tensors || recorded != prev.recorded ||
      counts.events != prev.counts.events || counts.accesses != prev.counts.accesses ||
      counts.elements != prev.counts.elements || area.size() != prev.area.size())
    return false;
  for (size_t i = 0; i < area.size(); ++i)
    if (area[i].first != prev.area[i].first || !(area[i].second.lo == prev.area[i].second.lo) ||
        !(area[i].second.hi == prev.area[i].second.hi))
      return false;
  return words == prev.words;
}

bool Interpreter::skip_iterations(const Probe &p, int64_t left) {
  uint64_t dseq = 0, accesses = 0, elements = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(left), p.counts.events, &dseq) ||
      __builtin_mul_overflow(static_cast<uint64_t>(left), p.counts.accesses, &accesses) ||
      __builtin_mul_overflow(static_cast<uint64_t>(left), p.counts.elements, &elements) ||
      dseq > static_cast<uint64_t>(INT64_MAX) - seq_)
    return false; // a full run would not get there either; let it say so
  m_.skip_iterations(p.area, static_cast<int64_t>(dseq));
  // The skipped iterations' tensors were allocated and freed in them: only
  // their ids advance (as for a replayed task's).
  tensors_.add_aliases(p.first_tensor, p.tensors, static_cast<size_t>(left));
  if (recording_)
    for (int64_t k = 0; k < left; ++k)
      for (size_t r = p.first_recorded; r < p.first_recorded + p.recorded; ++r)
      {
        OutsideAccess copy = (*recording_)[r];
        recording_->push_back(std::move(copy));
      }
  seq_ += dseq;
  stats.events += dseq;
  stats.accesses += accesses;
  stats.elements += elements;
  stats.replayed_iterations += static_cast<uint64_t>(left);
  return true;
}

} // namespace exgc::sync::detail
