// gpu_names.h - the built-in names of the GPU annotations -----------------//
// Owns: the sets of timelines, loop modes, collective units and `with`
// contexts the language knows (docs/language.md, "GPU annotations and
// synchronization", lists them all). The
// typecheck rejects names outside these sets, so later stages can switch on
// them without a default case for user mistakes.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace exgc::analysis {

/// Timelines of Fence/Arrive/Await (`cuda_in_order`, `wgmma_async`, ...).
enum class SyncTimeline {
  EmptySyncTl, CpuInOrder, CudaStreamSync, CudaInOrder, CudaTemporal, Sm80CpAsync, Sm80Generic,
  TmaToSmemAsync, TmaToGmemAsync, WgmmaAsyncSmem, WgmmaFence1, WgmmaFence2, WgmmaAsync,
  Tcgen05Commit, Tcgen05Ld, Tcgen05St, CudaGenericAndAsyncProxy
};
/// Timelines of instructions (`timeline:` attribute): the reference's
/// instr-tls without the `_instr` suffix (`tma_to_smem_async`, `wgmma_zero`).
enum class InstrTimeline {
  CpuInOrder, CpuCudaStream, CudaInOrder, Sm80CpAsync, TmaToSmemAsync, TmaToGmemAsync,
  WgmmaAsync, WgmmaZero, Tcgen05Mma, Tcgen05Cp, Tcgen05Shift, Tcgen05Ld, Tcgen05St
};
/// The names, in the order diagnostics list them.
const std::vector<std::string> &sync_timelines();
const std::vector<std::string> &instr_timelines();
bool is_sync_timeline(const std::string &name);
bool is_instr_timeline(const std::string &name);
/// The timeline `name` names, for stages after the typecheck (which refuses
/// any other name): an internal error on a name the language lacks.
SyncTimeline sync_timeline(const std::string &name);
/// The instruction timeline `name` names; nullopt for a name the language lacks.
std::optional<InstrTimeline> instr_timeline(const std::string &name);
const char *instr_timeline_name(InstrTimeline tl);

/// Loop modes and the keyword arguments each accepts.
bool is_loop_mode(const std::string &name);
bool loop_mode_accepts(const std::string &mode, const std::string &kwarg);

/// Collective units (docs/gpu.md, "Collective units"): names (`cuda_warp`)
/// and functions of integer parameters (`cuda_threads_strided(m, s)`).
enum class UnitKind {
  StandaloneThread, CudaThread, CudaWarp, CudaWarpgroup, CudaQuadpair, CudaThreadsStrided,
  CudaWarpInCluster, CudaCtaInCluster, CudaCluster, CudaCtaInClusterStrided,
  CudaWarpInClusterStrided, CudaAgnosticSubCta, CudaAgnosticIntactCta
};
/// The unit `name` names, either form; nullopt for a name the language lacks.
std::optional<UnitKind> unit_kind(const std::string &name);
const char *unit_name(UnitKind u);
/// Its integer parameters: 0 for a unit used as a name.
int unit_arity(UnitKind u);
/// Collective units usable as a name (`cuda_warp`).
bool is_unit_name(const std::string &name);
/// Number of parameters of a parametric unit, or -1 when `name` is not one.
int unit_function_arity(const std::string &name);

/// `with` contexts and their keyword parameters.
bool is_context(const std::string &name);
bool context_accepts(const std::string &context, const std::string &kwarg);
/// A keyword of `CudaDeviceFunction` whose value must be a positive integer
/// literal (its range is the GPU stage's, gpu/launch_config.h).
bool context_wants_literal(const std::string &kwarg);

/// `key` of an instr attribute line (`template`, `emit`, ...).
bool is_instr_attr(const std::string &key);

/// "a, b or c" for diagnostics that list the choices.
std::string join_choices(const std::vector<std::string> &names);

} // namespace exgc::analysis
