// gpu_names.cpp - tables of timelines, loop modes, units and contexts -----//
#include "compiler/analysis/gpu_names.h"

#include <algorithm>

#include "compiler/ir/nodes.h"

namespace exgc::analysis {

namespace {

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

const std::vector<std::string> &sync_timelines() {
  static const std::vector<std::string> k = {
      "empty_sync_tl",     "cpu_in_order",      "cuda_stream_sync", "cuda_in_order",
      "cuda_temporal",     "Sm80_cp_async",     "Sm80_generic",     "tma_to_smem_async",
      "tma_to_gmem_async", "wgmma_async_smem",  "wgmma_fence_1",    "wgmma_fence_2",
      "wgmma_async",       "tcgen05_commit",    "tcgen05_ld",       "tcgen05_st",
      "cuda_generic_and_async_proxy"};
  return k;
}

const std::vector<std::string> &instr_timelines() {
  static const std::vector<std::string> k = {
      "cpu_in_order",  "cpu_cuda_stream", "cuda_in_order",     "Sm80_cp_async",
      "tma_to_smem_async", "tma_to_gmem_async", "wgmma_async", "wgmma_zero",
      "tcgen05_mma",   "tcgen05_cp",      "tcgen05_shift",     "tcgen05_ld", "tcgen05_st"};
  return k;
}

bool is_sync_timeline(const std::string &name) { return contains(sync_timelines(), name); }
bool is_instr_timeline(const std::string &name) { return contains(instr_timelines(), name); }

bool is_loop_mode(const std::string &name) { return loop_kind(name).has_value(); }

bool loop_mode_accepts(const std::string &mode, const std::string &kwarg) {
  return (mode == "seq" && kwarg == "unroll") || (mode == "cuda_threads" && kwarg == "unit");
}

bool is_unit_name(const std::string &name) {
  static const std::vector<std::string> k = {
      "standalone_thread", "cuda_thread",         "cuda_warp",
      "cuda_warpgroup",    "cuda_quadpair",       "cuda_warp_in_cluster",
      "cuda_cta_in_cluster", "cuda_cluster",      "cuda_agnostic_sub_cta",
      "cuda_agnostic_intact_cta"};
  return contains(k, name);
}

int unit_function_arity(const std::string &name) {
  if (name == "cuda_threads_strided")
    return 2;
  if (name == "cuda_cta_in_cluster_strided" || name == "cuda_warp_in_cluster_strided")
    return 1;
  return -1;
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
