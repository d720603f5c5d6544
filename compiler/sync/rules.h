// rules.h - the access rules both engines share (reference section 4.4) ---//
//
// Small pure functions, so that the fast engine and the oracle cannot drift
// apart on what an access needs, what it records and what a failure is
// called. Deviations from the reference implementation are noted where made.
#ifndef EXGC_SYNC_RULES_H
#define EXGC_SYNC_RULES_H

#include "compiler/sync/machine.h"

namespace exgc::sync {

/// Flag an access needs on each prior mutate record: an atomic update only
/// Atom; a write-only mutate Temp; a read or read-modify-write Full.
inline int need_on_mutates(const AccessEvent &e) {
  return e.atomic ? Atom : (e.write_only ? Temp : Full);
}
/// Flag a mutate needs on each prior read record.
constexpr int kNeedOnReads = Temp;

/// Triples a new record gives its own threads: an out-of-order access is only
/// issued (a sync op sees it, nothing is ordered after it yet).
inline Masks new_record_masks(const AccessEvent &e) {
  Masks m;
  QualMask q = bit(e.initial);
  m.f[Issue] = q;
  if (!e.ooo)
    m.f[Atom] = m.f[Temp] = m.f[Full] = q;
  return m;
}

/// Name of a failure against a prior record ("first match wins", reference
/// section 4.4). Unlike the reference, only a ring slot's allocation record
/// is BEFORE_ALLOC, so a genuine WAR inside a slot is not misnamed.
inline HazardKind hazard_kind(bool freed, bool before_alloc, bool prior_is_mutate,
                              bool access_mutates) {
  if (freed)
    return HazardKind::UseAfterFree;
  if (before_alloc)
    return HazardKind::UseBeforeAlloc;
  if (prior_is_mutate)
    return access_mutates ? HazardKind::WriteAfterWrite : HazardKind::ReadAfterWrite;
  return HazardKind::WriteAfterRead;
}

/// Orders candidate failing records: the earliest access, then its lowest
/// thread (-1, a convergent record, has one origin and no thread).
struct Culprit {
  bool found = false;
  uint64_t seq = 0;
  int64_t tid = -1;
  bool better_than(const Culprit &o) const {
    return !o.found || seq < o.seq || (seq == o.seq && tid < o.tid);
  }
};

} // namespace exgc::sync

#endif
