// gpu_names.cpp - tables of timelines, loop modes, units and contexts -----//
#include "compiler/analysis/gpu_names.h"

#include <algorithm>

#include "compiler/ir/nodes.h"
#include "compiler/support/name_table.h"

namespace exgc::analysis {

namespace {

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

using ST = SyncTimeline;
const std::pair<const char *, SyncTimeline> kSyncTimelines[] = {
    {"empty_sync_tl", ST::EmptySyncTl},
    {"cpu_in_order", ST::CpuInOrder},
    {"cuda_stream_sync", ST::CudaStreamSync},
    {"cuda_in_order", ST::CudaInOrder},
    {"cuda_temporal", ST::CudaTemporal},
    {"Sm80_cp_async", ST::Sm80CpAsync},
    {"Sm80_generic", ST::Sm80Generic},
    {"tma_to_smem_async", ST::TmaToSmemAsync},
    {"tma_to_gmem_async", ST::TmaToGmemAsync},
    {"wgmma_async_smem", ST::WgmmaAsyncSmem},
    {"wgmma_fence_1", ST::WgmmaFence1},
    {"wgmma_fence_2", ST::WgmmaFence2},
    {"wgmma_async", ST::WgmmaAsync},
    {"tcgen05_commit", ST::Tcgen05Commit},
    {"tcgen05_ld", ST::Tcgen05Ld},
    {"tcgen05_st", ST::Tcgen05St},
    {"cuda_generic_and_async_proxy", ST::CudaGenericAndAsyncProxy},
};

using IT = InstrTimeline;
const std::pair<const char *, InstrTimeline> kInstrTimelines[] = {
    {"cpu_in_order", IT::CpuInOrder},
    {"cpu_cuda_stream", IT::CpuCudaStream},
    {"cuda_in_order", IT::CudaInOrder},
    {"Sm80_cp_async", IT::Sm80CpAsync},
    {"tma_to_smem_async", IT::TmaToSmemAsync},
    {"tma_to_gmem_async", IT::TmaToGmemAsync},
    {"wgmma_async", IT::WgmmaAsync},
    {"wgmma_zero", IT::WgmmaZero},
    {"tcgen05_mma", IT::Tcgen05Mma},
    {"tcgen05_cp", IT::Tcgen05Cp},
    {"tcgen05_shift", IT::Tcgen05Shift},
    {"tcgen05_ld", IT::Tcgen05Ld},
    {"tcgen05_st", IT::Tcgen05St},
};

using UK = UnitKind;
const std::pair<const char *, UnitKind> kUnits[] = {
    {"standalone_thread", UK::StandaloneThread},
    {"cuda_thread", UK::CudaThread},
    {"cuda_warp", UK::CudaWarp},
    {"cuda_warpgroup", UK::CudaWarpgroup},
    {"cuda_quadpair", UK::CudaQuadpair},
    {"cuda_threads_strided", UK::CudaThreadsStrided},
    {"cuda_warp_in_cluster", UK::CudaWarpInCluster},
    {"cuda_cta_in_cluster", UK::CudaCtaInCluster},
    {"cuda_cluster", UK::CudaCluster},
    {"cuda_cta_in_cluster_strided", UK::CudaCtaInClusterStrided},
    {"cuda_warp_in_cluster_strided", UK::CudaWarpInClusterStrided},
    {"cuda_agnostic_sub_cta", UK::CudaAgnosticSubCta},
    {"cuda_agnostic_intact_cta", UK::CudaAgnosticIntactCta},
};

template <typename Table> std::vector<std::string> names_of(const Table &t) {
  std::vector<std::string> out;
  for (const auto &entry : t)
    out.push_back(entry.first);
  return out;
}

} // namespace

const std::vector<std::string> &sync_timelines() {
  static const std::vector<std::string> k = names_of(kSyncTimelines);
  return k;
}

const std::vector<std::string> &instr_timelines() {
  static const std::vector<std::string> k = names_of(kInstrTimelines);
  return k;
}

SyncTimeline sync_timeline(const std::string &name) {
  std::optional<SyncTimeline> tl = find_named(kSyncTimelines, name);
  EXGC_CHECK(tl) << "sync timeline '" << name << "' after the typecheck";
  return *tl;
}

std::optional<InstrTimeline> instr_timeline(const std::string &name) {
  return find_named(kInstrTimelines, name);
}

const char *instr_timeline_name(InstrTimeline tl) {
  const char *name = name_of(kInstrTimelines, tl);
  EXGC_CHECK(name) << "an instr timeline missing from the table";
  return name;
}

bool is_sync_timeline(const std::string &name) {
  return find_named(kSyncTimelines, name).has_value();
}
bool is_instr_timeline(const std::string &name) { return instr_timeline(name).has_value(); }

bool is_loop_mode(const std::string &name) { return loop_kind(name).has_value(); }

bool loop_mode_accepts(const std::string &mode, const std::string &kwarg) {
  return (mode == "seq" && kwarg == "unroll") || (mode == "cuda_threads" && kwarg == "unit");
}

std::optional<UnitKind> unit_kind(const std::string &name) { return find_named(kUnits, name); }

const char *unit_name(UnitKind u) {
  const char *name = name_of(kUnits, u);
  EXGC_CHECK(name) << "a unit missing from the table";
  return name;
}

int unit_arity(UnitKind u) {
  switch (u) {
  case UK::CudaThreadsStrided: return 2;
  case UK::CudaCtaInClusterStrided:
  case UK::CudaWarpInClusterStrided: return 1;
  case UK::StandaloneThread:
  case UK::CudaThread:
  case UK::CudaWarp:
  case UK::CudaWarpgroup:
  case UK::CudaQuadpair:
  case UK::CudaWarpInCluster:
  case UK::CudaCtaInCluster:
  case UK::CudaCluster:
  case UK::CudaAgnosticSubCta:
  case UK::CudaAgnosticIntactCta: return 0;
  }
  return 0;
}

bool is_unit_name(const std::string &name) {
  std::optional<UnitKind> u = unit_kind(name);
  return u && unit_arity(*u) == 0;
}

int unit_function_arity(const std::string &name) {
  std::optional<UnitKind> u = unit_kind(name);
  return u && unit_arity(*u) > 0 ? unit_arity(*u) : -1;
}

bool is_context(const std::string &name) { return context_kind(name).has_value(); }

bool context_accepts(const std::string &context, const std::string &kwarg) {
  if (context == "CudaDeviceFunction")
    return kwarg == "blockDim" || kwarg == "clusterDim" || kwarg == "blocks_per_sm" ||
           kwarg == "warps" || kwarg == "task_group";
  if (context == "CudaWarps")
    return kwarg == "name";
  return false;
}

bool context_wants_literal(const std::string &kwarg) {
  return kwarg == "blockDim" || kwarg == "clusterDim" || kwarg == "blocks_per_sm" ||
         kwarg == "task_group";
}

bool is_instr_attr(const std::string &key) {
  static const std::vector<std::string> k = {"template",      "collective", "timeline",
                                             "out_of_order",  "out_of_bounds", "distributed",
                                             "barrier",       "emit",       "atomic"};
  return contains(k, key);
}

std::string join_choices(const std::vector<std::string> &names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      s += i + 1 == names.size() ? " or " : ", ";
    s += "'" + names[i] + "'";
  }
  return s;
}

} // namespace exgc::analysis
