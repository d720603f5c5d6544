// quals.cpp - qual names and the sync-timeline table ----------------------//
#include "compiler/sync/quals.h"

namespace exgc::sync {
namespace {

const char *const kQualNames[kNumQuals] = {"cpu",  "strm", "cuda1", "cuda2", "mbar",
                                           "sm80", "tmaS", "tmaG",  "wgA",   "wgD",
                                           "wgS",  "wg0",  "async", "tmaGW"};

QualMask q(std::initializer_list<Qual> qs) {
  QualMask m = 0;
  for (Qual x : qs)
    m |= bit(x);
  return m;
}

struct NamedTl {
  const char *name;
  QualMask full;
  QualMask temp_only;
};

// Table 3.4 of the reference. cuda_temporal keeps mbar in its full set on
// purpose: Arrive(cuda_temporal) must still carry mbarrier-word accesses, which
// the ring-buffer checks rely on.
const NamedTl *table(int &n) {
  using Q = Qual;
  static const NamedTl t[] = {
      {"empty_sync_tl", 0, 0},
      {"cpu_in_order", q({Q::Cpu}), 0},
      {"cuda_stream_sync",
       q({Q::Strm, Q::Cuda1, Q::Cuda2, Q::Mbar, Q::Async, Q::Sm80, Q::TmaS, Q::TmaG, Q::WgA,
          Q::WgD, Q::WgS, Q::TmaGW}),
       0},
      {"cuda_in_order", q({Q::Cuda1, Q::Cuda2, Q::Mbar}), q({Q::Async, Q::Wg0})},
      {"cuda_temporal", q({Q::Mbar}), q({Q::Cuda1, Q::Cuda2, Q::Async, Q::Wg0})},
      {"Sm80_cp_async", q({Q::Sm80, Q::Mbar}), 0},
      {"Sm80_generic", q({Q::Cuda1, Q::Cuda2, Q::Mbar, Q::Sm80}), q({Q::Async, Q::Wg0})},
      {"tma_to_smem_async", q({Q::TmaS}), 0},
      {"tma_to_gmem_async", q({Q::TmaG}), 0},
      {"wgmma_async_smem", q({Q::WgS}), 0},
      {"wgmma_fence_1", q({Q::Cuda1, Q::WgA, Q::WgD}), 0},
      {"wgmma_fence_2", q({Q::WgA, Q::WgD}), 0},
      {"wgmma_async", q({Q::WgA, Q::WgD, Q::WgS}), 0},
      {"cuda_generic_and_async_proxy", q({Q::Cuda1, Q::Cuda2, Q::Mbar, Q::Async}), q({Q::Wg0})},
  };
  n = sizeof(t) / sizeof(t[0]);
  return t;
}

} // namespace

const char *qual_name(Qual x) { return kQualNames[static_cast<int>(x)]; }

std::optional<Qual> parse_qual(const std::string &s) {
  for (int i = 0; i < kNumQuals; ++i)
    if (s == kQualNames[i])
      return static_cast<Qual>(i);
  return std::nullopt;
}

std::string qual_set_string(QualMask m) {
  std::string out = "{";
  bool first = true;
  for (int i = 0; i < kNumQuals; ++i) {
    if (!(m & (QualMask(1) << i)))
      continue;
    if (!first)
      out += ",";
    out += kQualNames[i];
    first = false;
  }
  return out + "}";
}

const char *flag_name(int f) {
  static const char *const names[kNumFlags] = {"atomic", "temporal", "full", "issue"};
  return names[f];
}

bool needs_proxy_fence(const SyncTl &first, const SyncTl &second) {
  // Shared and global memory only: register quals (cuda1, wgA, wgD, wg0)
  // belong to no memory proxy.
  const QualMask generic = q({Qual::Cuda2, Qual::Sm80});
  const QualMask async = q({Qual::TmaS, Qual::TmaG, Qual::WgS, Qual::Async, Qual::TmaGW});
  return (first.full & generic) && (second.full & async);
}

std::optional<SyncTl> lookup_sync_tl(const std::string &name) {
  int n = 0;
  const NamedTl *t = table(n);
  for (int i = 0; i < n; ++i)
    if (name == t[i].name)
      return SyncTl{t[i].full, t[i].full | t[i].temp_only};
  return std::nullopt;
}

std::string sync_tl_string(const SyncTl &tl) {
  int n = 0;
  const NamedTl *t = table(n);
  for (int i = 0; i < n; ++i)
    if (tl.full == t[i].full && tl.temp == (t[i].full | t[i].temp_only))
      return t[i].name;
  return qual_set_string(tl.full) + "~" + qual_set_string(tl.temp & ~tl.full);
}

} // namespace exgc::sync
