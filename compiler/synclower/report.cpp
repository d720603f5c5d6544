// report.cpp - a hazard as diagnostics at .exg lines -----------------------//
#include "compiler/synclower/report.h"

#include <initializer_list>

namespace exgc::synclower {

namespace {

using sync::HazardKind;
using sync::Qual;

std::string element(const sync::Hazard &h) {
  std::string s = h.tensor + "[";
  for (size_t i = 0; i < h.element.size(); ++i)
    s += (i ? ", " : "") + std::to_string(h.element[i]);
  return s + "]";
}

const Origin *origin_of(const Lowered &l, const sync::Stmt *s) {
  auto it = s ? l.origins.find(s) : l.origins.end();
  return it == l.origins.end() ? nullptr : &it->second;
}

/// The synchronization that orders an access on `prior` quals before a later
/// one that needed visibility on one of `need`.
std::string remedy(sync::QualMask prior, sync::QualMask need) {
  auto has = [&](std::initializer_list<Qual> qs) {
    for (Qual q : qs)
      if (prior & sync::bit(q))
        return true;
    return false;
  };
  if (prior == 0)
    return "this ring slot still holds an earlier element: the Await that hands the slot to this "
           "element (on the barrier its earlier users arrive on as they release it) must come "
           "before the access";
  if (prior == sync::bit(Qual::Mbar))
    return "an instruction's trailing barrier raises the phase's transaction count (expect_tx): "
           "an Arrive that may complete the phase must be ordered after it (made by the "
           "issuing threads, or after they arrive on another barrier this one awaits), or the "
           "phase completes before the data lands";
  if (has({Qual::TmaGW}))
    return "a TMA store's global writes complete only when the kernel ends (its bulk group is "
           "awaited with '.read'); read the result after the kernel";
  if (has({Qual::TmaG}))
    return "a TMA store reads shared memory asynchronously: an Arrive(tma_to_gmem_async) on an "
           "Sm90_TmaCommitGroup after it and an Await on that group (then a Fence for the "
           "other threads) must come between the two";
  if ((need & sync::bit(Qual::Async)) && has({Qual::Cuda1, Qual::Cuda2}))
    return "the later access is by the async proxy (a TMA store or wgmma): a "
           "Fence(cuda_in_order, cuda_generic_and_async_proxy) by a collective containing both "
           "threads (fence.proxy.async, then a barrier) must come between the two";
  if (has({Qual::TmaS}))
    return "the TMA copy completes on its trailing barrier: an Await on that barrier (with "
           "cuda_generic_and_async_proxy for a generic-proxy access, cuda_temporal for "
           "another TMA write) must come between the two";
  if (has({Qual::WgS, Qual::WgD, Qual::WgA, Qual::Wg0}))
    return "wgmma runs asynchronously: an Arrive(wgmma_async) on a commit group after it, and "
           "an Await on that group before the later access, must come between the two";
  if (has({Qual::Sm80}))
    return "cp.async runs asynchronously: an Arrive(Sm80_cp_async) on a commit group and an "
           "Await on it must come between the two";
  if ((need & (sync::bit(Qual::WgA) | sync::bit(Qual::WgD))) && has({Qual::Cuda1, Qual::Cuda2}))
    return "the later access is a wgmma on registers the threads accessed (an A operand or an "
           "accumulator): a Fence(wgmma_fence_1, wgmma_fence_2) (wgmma.fence) by the warpgroup "
           "must come between the two";
  return "a Fence(cuda_in_order, cuda_in_order) by a collective containing both threads, or an "
         "Arrive by the earlier threads and an Await by the later ones, must come between the "
         "two";
}

bool is_race(HazardKind k) {
  return k == HazardKind::ReadAfterWrite || k == HazardKind::WriteAfterRead ||
         k == HazardKind::WriteAfterWrite;
}

} // namespace

std::string threads_in_words(const sync::ThreadSet &t, const gpu::KernelFacts *kernel) {
  if (t.is_all())
    return "the CPU";
  if (!kernel || t.empty() || t.intervals().size() != 1)
    return "threads " + t.str();
  const uint64_t per_task = static_cast<uint64_t>(kernel->config.env.threads());
  const uint64_t block = static_cast<uint64_t>(kernel->config.env.block_dim);
  const uint64_t lo = t.min() % per_task, n = t.size();
  if (lo + n > per_task)
    return "threads " + t.str();
  std::string who;
  const uint64_t in_cta = lo % block;
  if (n == per_task)
    return kernel->config.env.cluster_dim > 1 ? "the whole cluster" : "the whole CTA";
  if (n == 1)
    who = "thread " + std::to_string(in_cta);
  else if (n == 32 && in_cta % 32 == 0)
    who = "warp " + std::to_string(in_cta / 32);
  else if (n == 128 && in_cta % 128 == 0)
    who = "warpgroup " + std::to_string(in_cta / 128);
  else if (n == block && in_cta == 0)
    who = "all threads";
  else
    who = "threads " + std::to_string(in_cta) + ".." + std::to_string(in_cta + n - 1);
  if (kernel->config.env.cluster_dim > 1)
    who += " of CTA " + std::to_string(lo / block) + " of the cluster";
  const int64_t warp = static_cast<int64_t>(in_cta / 32),
                last = static_cast<int64_t>((in_cta + n - 1) / 32);
  for (const gpu::WarpRole &r : kernel->roles)
    if (r.lo <= warp && last < r.hi)
      who += " (" + r.name + ")";
  return who;
}

namespace {
/// A statement inlined from a call of a proc in device code: where the call is.
void note_call_site(const Origin *o, DiagEngine &diag) {
  if (o && o->call_site)
    diag.report(o->call_site->loc, DiagKind::DeviceCallSite, o->call_site->callee);
}
} // namespace

void report_hazard(const sync::Hazard &h, const Lowered &lowered, const std::string &check_text,
                   const std::string &derived,
                   SrcLoc check_loc, DiagEngine &diag) {
  const Origin *here = origin_of(lowered, h.stmt);
  const SrcLoc loc = here ? here->loc : check_loc;
  const gpu::KernelFacts *kernel = here ? here->kernel : nullptr;
  const std::string who = h.threads ? threads_in_words(*h.threads, kernel) : "";
  if (h.kind == HazardKind::ResourceLimit) {
    // The budget is the check's, not a statement's: the error goes at the
    // `check` (or, for --check-size, names the option); a note says where the
    // walk had got to, which tells how far from the end it stopped.
    DiagBuilder b = diag.report(check_loc, DiagKind::SyncCheckLimit, check_text,
                                h.message + (check_loc.valid() ? "" : ", the check of --check-size"));
    std::string at;
    for (const auto &[name, value] : h.iters)
      at += (at.empty() ? "" : ", ") + name + " = " + std::to_string(value);
    if (here)
      b.note(here->loc, "it stopped here" + (at.empty() ? std::string() : ", at " + at) +
                            (derived.empty() ? "" : ", at sizes derived from the declared ones (" +
                                                        derived + ")"));
    return;
  }
  if (is_race(h.kind) && h.has_prior) {
    std::string words = "this access by " + who + " is not ordered after the earlier one";
    diag.report(loc, DiagKind::SyncRace, sync::hazard_kind_name(h.kind), element(h), words);
  } else {
    std::string what = sync::hazard_kind_name(h.kind);
    if (!h.tensor.empty())
      what += " on '" + element(h) + "'";
    std::string msg = h.message.empty() ? "executed by " + who : h.message;
    const bool cluster = kernel && kernel->config.env.cluster_dim > 1;
    const bool barrier_words = h.need_quals == sync::bit(sync::Qual::Mbar);
    if (h.kind == HazardKind::FreeWithoutSync && barrier_words)
      // The persistent kernel's next task reuses the mbarrier and its phases.
      msg = std::string("the ") + (cluster ? "cluster" : "CTA") +
            "'s next task reuses this mbarrier with its phase, but not every thread is ordered "
            "after this Arrive or Await on it; " +
            (cluster ? "a CudaClusterSync Arrive and Await by the whole cluster"
                     : "a Fence(cuda_in_order, cuda_in_order) by the whole CTA") +
            " after the last one is missing";
    else if (h.kind == HazardKind::FreeWithoutSync)
      // In a cluster the neighbours' multicasts also write this memory, so
      // the order must be cluster-wide (a CTA barrier is not enough).
      msg = cluster
                ? "the cluster's next task may reuse this shared memory, but not every thread "
                  "of the cluster is ordered after this access; a Fence(cuda_in_order, "
                  "cuda_in_order) or a CudaClusterSync Arrive and Await by the whole cluster "
                  "after the last access is missing"
                : "the CTA's next task may reuse this shared memory, but not every thread is "
                  "ordered after this access; a Fence(cuda_in_order, cuda_in_order) by the whole "
                  "CTA after the last access is missing";
    if (h.kind == HazardKind::NoForwardProgress)
      msg += " (a deadlock: this Await waits for an Arrive that comes later in the program)";
    diag.report(loc, DiagKind::SyncOrderError, what, msg);
  }
  note_call_site(here, diag);
  if (h.has_prior) {
    const Origin *prior = origin_of(lowered, h.prior.stmt);
    std::string by = h.prior_thread >= 0
                         ? threads_in_words(sync::ThreadSet::single(h.prior_thread), kernel)
                         : (h.prior.threads ? threads_in_words(*h.prior.threads, kernel) : "?");
    // A record on no qual is a ring slot's allocation: the slot's earlier
    // element, which the ring must release before this one uses the slot.
    std::string text = h.kind == HazardKind::UseBeforeAlloc ? "the slot is allocated here"
                       : h.prior_quals == 0
                           ? "the ring slot, allocated here: it holds an earlier element "
                             "until the ring's allocating Await hands it on"
                           : "the earlier access, by " + by + ", on " +
                                 sync::qual_set_string(h.prior_quals);
    diag.report(prior ? prior->loc : check_loc, DiagKind::SyncPriorAccess, text);
    note_call_site(prior, diag);
    if (is_race(h.kind))
      diag.report(loc, DiagKind::SyncExplain,
                  who + (who.rfind("threads ", 0) == 0 ? " need " : " needs ") +
                      sync::flag_name(h.need_flag) + " visibility of it on one of " +
                      sync::qual_set_string(h.need_quals) + "; " + remedy(h.prior_quals, h.need_quals));
  }
  if (!h.iters.empty()) {
    std::string at;
    for (const auto &[name, value] : h.iters)
      at += (at.empty() ? "" : ", ") + name + " = " + std::to_string(value);
    diag.report(loc, DiagKind::SyncExplain, "at " + at);
  }
  for (const std::string &n : h.notes)
    diag.report(loc, DiagKind::SyncExplain, n);
  diag.report(check_loc.valid() ? check_loc : loc, DiagKind::SyncCheckContext, check_text,
              derived.empty() ? "" : ", at sizes derived from the declared ones (" + derived + ")");
}

} // namespace exgc::synclower
