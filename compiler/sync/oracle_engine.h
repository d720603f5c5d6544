// oracle_engine.h - the plain element-by-element engine -------------------//
//
// Owns OracleEngine, a direct transcription of the abstract machine's rules
// (reference sections 4.4-4.7): every element holds its own assignment
// record, every non-convergent access makes one record per thread, and every
// sync op scans every record. It is slow on purpose: it is the reference the
// fast engine is tested against, and, restricted to one element, the replay
// that explains a hazard the fast engine found.
#ifndef EXGC_SYNC_ORACLE_ENGINE_H
#define EXGC_SYNC_ORACLE_ENGINE_H

#include "compiler/sync/machine.h"

#include <map>
#include <memory>

namespace exgc::sync {

class OracleEngine final : public Machine {
public:
  OracleEngine();
  ~OracleEngine() override;
  /// Keep histories for element `linear` of tensor `tensor` only, and log the
  /// changes to the record made by access event `watch_seq` (for thread
  /// `watch_tid` when it was per thread; -1: the convergent record).
  void restrict_to(int tensor, int64_t linear, uint64_t watch_seq, int64_t watch_tid);
  /// What happened to the watched records, oldest first.
  const std::vector<std::string> &log() const;

  void alloc(int tensor, const Ctx &c) override;
  bool free(int tensor, const Ctx &c, bool has_check, QualMask check) override;
  bool access(const AccessEvent &e) override;
  void fence(const Ctx &c, QualMask l1, const SyncTl &l2) override;
  void arrive(const Ctx &c, QualMask l1, const std::vector<uint64_t> &bars, int64_t k) override;
  void await(const Ctx &c, uint64_t bar, int64_t kmax, const SyncTl &l2) override;
  void join(const Ctx &c) override;

private:
  struct State;
  std::unique_ptr<State> st_;
};

} // namespace exgc::sync

#endif
