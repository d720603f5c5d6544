// check.cpp - fast pass, then a one-element replay -------------------------//
#include "compiler/sync/check.h"

#include "compiler/sync/oracle_engine.h"

namespace exgc::sync {

CheckResult check_program(const Program &p, const CheckOptions &opts) {
  CheckResult res;
  ResourceMeter meter(opts.budget);
  meter.set_progress(opts.progress);
  RunOptions run;
  run.meter = &meter;
  if (opts.engine == EngineKind::Oracle) {
    OracleEngine oracle;
    res.ok = run_program(p, oracle, res.hazard, &res.stats, run);
    return res;
  }
  FastEngine fast;
  run.replay_tasks = opts.replay_tasks;
  run.replay_loops = opts.replay_loops;
  res.ok = run_program(p, fast, res.hazard, &res.stats, run);
  res.fast = fast.stats();
  if (res.ok || !opts.explain || res.hazard.tensor_id < 0 || !res.hazard.has_prior)
    return res;
  OracleEngine replay;
  replay.restrict_to(res.hazard.tensor_id, res.hazard.linear, res.hazard.prior.seq,
                     res.hazard.prior_thread);
  Hazard again;
  RunOptions replay_run;
  replay_run.meter = &meter;
  bool ok = run_program(p, replay, again, nullptr, replay_run);
  res.replay_agreed = !ok && again.same_as(res.hazard);
  const auto &log = replay.log();
  if (log.empty()) {
    res.hazard.notes.push_back("no sync operation ordered that access for any thread");
  } else {
    // The last steps are the informative ones: where the chain stopped.
    size_t from = log.size() > 4 ? log.size() - 4 : 0;
    if (from)
      res.hazard.notes.push_back(std::to_string(from) + " earlier sync steps omitted");
    for (size_t i = from; i < log.size(); ++i)
      res.hazard.notes.push_back(log[i]);
  }
  if (!res.replay_agreed)
    res.hazard.notes.push_back("internal: the one-element replay found a different verdict: " +
                               (ok ? std::string("none") : again.summary()));
  return res;
}

} // namespace exgc::sync
