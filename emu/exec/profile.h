// emu/exec/profile.h - dynamic instruction counts by class (--profile) -------//
// A launch's profile counts the warp instructions each warpgroup issued, by
// class, summed over its CTAs. These are PTX instructions, not SASS: a proxy
// for the work a kernel asks of the machine besides the tensor cores, good for
// comparing two kernels built the same way (docs/emulator.md, "Profiles").
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace emu::ptx {
struct Instr;
}

namespace emu::exec {

enum class ProfileClass : uint8_t {
  Tensor,      ///< wgmma.mma_async, mma
  TensorSync,  ///< wgmma.fence, commit_group, wait_group
  Tma,         ///< cp.async.bulk*, cp.reduce.async.bulk*
  Sync,        ///< mbarrier.*, bar.*, barrier.*, fence.*, membar
  Int32,       ///< integer and predicate arithmetic of 32 bits or fewer
  Int64,       ///< 64-bit integer arithmetic (not division)
  Div64,       ///< 64-bit div and rem
  Float,       ///< floating-point arithmetic
  Convert,     ///< cvt
  Move,        ///< mov
  Branch,      ///< bra, call, ret, exit
  Warp,        ///< shfl, vote, match, redux, elect, activemask
  LdShared, StShared, LdGlobal, StGlobal,
  LdOther,     ///< param, const, local and generic loads
  StOther,     ///< local and generic stores
  Atomic,      ///< atom, red
  Other,       ///< setmaxnreg, prefetch, createpolicy, mapa, ...
  Count,
};

constexpr size_t kProfileClasses = size_t(ProfileClass::Count);
using ProfileCounts = std::array<uint64_t, kProfileClasses>;

/// The class of one PTX instruction.
ProfileClass profile_class(const ptx::Instr &in);
const char *profile_class_name(ProfileClass c);

struct Run;

/// Appends one JSON line for the launch to `f`: the kernel, its grid, block
/// and cluster, and per warpgroup (warp index in the CTA / 4) the counts of
/// every class that occurred.
void write_profile(const Run &run, std::FILE *f);

} // namespace emu::exec
