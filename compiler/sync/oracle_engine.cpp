// oracle_engine.cpp - element-by-element histories, per-thread records ---//
#include "compiler/sync/oracle_engine.h"

#include "compiler/sync/rules.h"

#include <algorithm>

namespace exgc::sync {

namespace {

struct ORec {
  VisSet s;
  QualMask atomic_all = 0;
  std::map<uint64_t, int64_t> pending; // barrier element -> arrive count
  int64_t foa = -1;
  bool freed = false, before_alloc = false;
  Origin origin;
  int64_t tid = -1; // per-thread record: its thread
  QualMask own = 0;
};

struct OAR {
  std::vector<ORec> reads, mutates;
  int64_t foa = -1;
};

std::string where(const Stmt *s) {
  if (!s)
    return "?";
  if (s->loc.known())
    return s->loc.str();
  if (s->text_loc.known())
    return s->text_loc.str();
  return "?";
}

} // namespace

struct OracleEngine::State {
  std::map<std::pair<int, int64_t>, OAR> elems;
  int only_tensor = -1;
  int64_t only_linear = -1;
  uint64_t watch_seq = 0;
  int64_t watch_tid = -1;
  std::vector<std::string> log;

  bool tracked(int t, int64_t l) const {
    return only_tensor < 0 || (t == only_tensor && l == only_linear);
  }
  bool watched(const ORec &r) const {
    return only_tensor >= 0 && r.origin.seq == watch_seq && r.tid == watch_tid;
  }

  template <typename Fn> void for_each_record(Fn fn) {
    for (auto &kv : elems) {
      for (ORec &r : kv.second.mutates)
        fn(r);
      for (ORec &r : kv.second.reads)
        fn(r);
    }
  }

  void note(const ORec &r, const Ctx &c, const char *what, const std::string &extra) {
    if (!watched(r))
      return;
    log.push_back(std::string(what) + " at " + where(c.stmt) + " by threads " +
                  c.threads->str() + extra);
  }

  void augment(ORec &r, const Ctx &c, const Masks &m, const char *what) {
    if (r.s.add(*c.threads, m)) {
      r.before_alloc = false;
      note(r, c, what, " ordered the access for them");
    }
  }
};

OracleEngine::OracleEngine() : st_(std::make_unique<State>()) {}
OracleEngine::~OracleEngine() = default;

void OracleEngine::restrict_to(int tensor, int64_t linear, uint64_t watch_seq,
                               int64_t watch_tid) {
  st_->only_tensor = tensor;
  st_->only_linear = linear;
  st_->watch_seq = watch_seq;
  st_->watch_tid = watch_tid;
}

const std::vector<std::string> &OracleEngine::log() const { return st_->log; }

void OracleEngine::alloc(int tensor, const Ctx &c) {
  const TensorInfo &t = (*tensors_)[tensor];
  for (const RingSlot &slot : ring_slots(t, *tensors_))
    t.for_each_linear(slot.box, [&](int64_t l) {
      tick();
      if (!st_->tracked(tensor, l))
        return;
      OAR &ar = st_->elems[{tensor, l}];
      ar.foa = slot.free_on_arrive;
      if (slot.alloc_on_await.empty())
        return;
      ORec r;
      r.foa = slot.free_on_arrive;
      r.before_alloc = true;
      for (uint64_t b : slot.alloc_on_await)
        r.pending[b] = 0;
      r.origin = Origin{c.seq, c.stmt, c.threads};
      ar.mutates.push_back(std::move(r));
    });
}

namespace {
// Whether r is visible to c (reference `visible`), and who is missing.
bool visible(const ORec &r, const ThreadSet &c, QualMask q, int flag, bool conv,
             ThreadSet *missing) {
  if (flag == Atom && (q & r.atomic_all))
    return true;
  if (conv) {
    if (r.s.any(c, q, flag))
      return true;
    if (missing)
      *missing = c;
    return false;
  }
  ThreadSet m = r.s.missing(c, q, flag);
  if (m.empty())
    return true;
  if (missing)
    *missing = std::move(m);
  return false;
}
} // namespace

bool OracleEngine::access(const AccessEvent &e) {
  const TensorInfo &t = (*tensors_)[e.tensor];
  std::vector<int64_t> lins;
  for (const Box &b : e.boxes)
    t.for_each_linear(b, [&](int64_t l) {
      tick();
      if (st_->tracked(e.tensor, l))
        lins.push_back(l);
    });
  std::sort(lins.begin(), lins.end());
  const ThreadSet &c = *e.ctx.threads;
  const int need_m = need_on_mutates(e);
  for (int64_t l : lins) {
    auto it = st_->elems.find({e.tensor, l});
    if (it == st_->elems.end())
      continue;
    OAR &ar = it->second;
    Culprit best;
    const ORec *culprit = nullptr;
    ThreadSet culprit_missing;
    bool from_mutates = true;
    for (int pass = 0; pass < 2 && !best.found; ++pass) {
      if (pass == 1 && !e.mutate)
        break;
      from_mutates = pass == 0;
      int need = pass == 0 ? need_m : kNeedOnReads;
      for (const ORec &r : pass == 0 ? ar.mutates : ar.reads) {
        ThreadSet miss;
        if (visible(r, c, e.ext, need, e.conv, &miss))
          continue;
        Culprit cand{true, r.origin.seq, r.tid};
        if (cand.better_than(best)) {
          best = cand;
          culprit = &r;
          culprit_missing = std::move(miss);
        }
      }
    }
    if (!culprit)
      continue;
    hazard_ = Hazard();
    hazard_.kind = hazard_kind(culprit->freed, culprit->before_alloc, from_mutates, e.mutate);
    hazard_.tensor_id = e.tensor;
    hazard_.linear = l;
    hazard_.has_prior = true;
    hazard_.prior = culprit->origin;
    hazard_.prior_thread = culprit->tid;
    hazard_.missing_threads = culprit_missing;
    hazard_.need_flag = from_mutates ? need_m : kNeedOnReads;
    hazard_.need_quals = e.ext;
    hazard_.prior_quals = culprit->own;
    return false;
  }
  // Record: one record per access, or per thread for a non-convergent one.
  std::vector<ORec> fresh;
  Masks m = new_record_masks(e);
  auto make = [&](const ThreadSet &who, int64_t tid) {
    ORec r;
    r.s.add(who, m);
    r.atomic_all = e.atomic;
    for (auto &[b, k] : e.trailing)
      r.pending.emplace(b, k);
    r.origin = Origin{e.ctx.seq, e.ctx.stmt, e.ctx.threads};
    r.tid = tid;
    r.own = bit(e.initial);
    fresh.push_back(std::move(r));
  };
  if (e.conv) {
    make(c, -1);
  } else {
    for (const Interval &iv : c.intervals())
      for (uint64_t th = iv.lo; th < iv.hi; ++th) {
        tick();
        make(ThreadSet::single(th), static_cast<int64_t>(th));
      }
  }
  for (int64_t l : lins) {
    tick();
    OAR &ar = st_->elems[{e.tensor, l}];
    std::vector<ORec> add = fresh;
    for (ORec &r : add)
      r.foa = ar.foa;
    if (e.mutate) {
      ar.reads.clear();
      if (!e.atomic)
        ar.mutates.clear();
      for (ORec &r : add)
        ar.mutates.push_back(std::move(r));
    } else {
      for (ORec &r : add)
        ar.reads.push_back(std::move(r));
    }
  }
  return true;
}

void OracleEngine::fence(const Ctx &c, QualMask l1, const SyncTl &l2) {
  Masks m = augment_masks(l2);
  st_->for_each_record([&](ORec &r) {
    tick();
    if (!r.freed && r.s.witness(*c.threads, l1))
      st_->augment(r, c, m, "Fence");
  });
}

void OracleEngine::arrive(const Ctx &c, QualMask l1, const std::vector<uint64_t> &bars,
                          int64_t k) {
  if (!l1)
    return;
  st_->for_each_record([&](ORec &r) {
    tick();
    if (r.freed || !r.s.witness(*c.threads, l1))
      return;
    if (r.foa >= 0 && std::binary_search(bars.begin(), bars.end(), uint64_t(r.foa))) {
      r.s = VisSet();
      r.pending.clear();
      r.atomic_all = 0;
      r.freed = true;
      st_->note(r, c, "Arrive", " freed the ring slot");
      return;
    }
    bool added = false;
    for (uint64_t b : bars)
      added = r.pending.emplace(b, k).second || added;
    if (added)
      st_->note(r, c, "Arrive", " took the access into its barrier token");
  });
}

void OracleEngine::await(const Ctx &c, uint64_t bar, int64_t kmax, const SyncTl &l2) {
  Masks m = augment_masks(l2);
  st_->for_each_record([&](ORec &r) {
    tick();
    auto it = r.pending.find(bar);
    if (!r.freed && it != r.pending.end() && it->second <= kmax)
      st_->augment(r, c, m, "Await");
  });
}

void OracleEngine::join(const Ctx &c) {
  st_->for_each_record([&](ORec &r) {
    tick();
    if (r.freed)
      return;
    Masks h = r.s.held(*c.threads);
    if (h.any())
      st_->augment(r, c, h, "Join");
  });
}

bool OracleEngine::free(int tensor, const Ctx &c, bool has_check, QualMask check) {
  const TensorInfo &t = (*tensors_)[tensor];
  auto lo = st_->elems.lower_bound({tensor, INT64_MIN});
  auto hi = st_->elems.lower_bound({tensor + 1, INT64_MIN});
  // The ring rule first (every slot freed by its Arrive), then the checked
  // free (every thread ordered after every access), which a ring of data
  // slots skips and a barrier ring does not (machine.h).
  auto fails = [&](bool ring) {
    for (auto it = lo; it != hi; ++it) {
      Culprit best;
      const ORec *culprit = nullptr;
      ThreadSet culprit_missing;
      for (int pass = 0; pass < 2; ++pass)
        for (const ORec &r : pass == 0 ? it->second.mutates : it->second.reads) {
          ThreadSet miss;
          bool bad = ring ? (r.foa >= 0 && !r.freed)
                          : !r.freed && !visible(r, *c.threads, check, Temp, false, &miss);
          if (!bad)
            continue;
          Culprit cand{true, r.origin.seq, r.tid};
          if (cand.better_than(best)) {
            best = cand;
            culprit = &r;
            culprit_missing = std::move(miss);
          }
        }
      if (!culprit)
        continue;
      hazard_ = Hazard();
      hazard_.kind = ring ? HazardKind::FreeWithoutArrive : HazardKind::FreeWithoutSync;
      hazard_.tensor_id = tensor;
      hazard_.linear = it->first.second;
      hazard_.has_prior = true;
      hazard_.prior = culprit->origin;
      hazard_.prior_thread = culprit->tid;
      hazard_.missing_threads = culprit_missing;
      hazard_.need_flag = ring ? 0 : Temp;
      hazard_.need_quals = ring ? 0 : check;
      hazard_.prior_quals = culprit->own;
      return true;
    }
    return false;
  };
  const bool ring = t.ring_dim >= 0;
  if (ring && fails(true))
    return false;
  if (has_check && (!ring || t.is_barrier) && fails(false))
    return false;
  st_->elems.erase(lo, hi);
  return true;
}

} // namespace exgc::sync
