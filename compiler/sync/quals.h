// quals.h - qualitative timelines, sync-timelines and visibility flags -----//
//
// Owns the vocabulary of the abstract machine (docs/sync.md,
// "The model"): the qualitative timelines ("quals") an access is made on, the
// sync-timelines (a full set plus a temporal-only set of quals) that Fence,
// Arrive and Await name, and the four visibility flags of a triple.
// Tables here are data; the rules that use them live in the engines.
#ifndef EXGC_SYNC_QUALS_H
#define EXGC_SYNC_QUALS_H

#include <cstdint>
#include <optional>
#include <string>

namespace exgc::sync {

/// One qualitative timeline. Bit index = declaration order; the text form uses
/// their short names (cpu, cuda2, tmaS, ...; docs/sync.md).
enum class Qual : uint8_t {
  Cpu, Strm, Cuda1, Cuda2, Mbar, Sm80, TmaS, TmaG, WgA, WgD, WgS, Wg0, Async,
  // Not in the reference: a TMA store's global write. Its bulk group is
  // awaited with `.read` (shared memory free, global writes maybe still in
  // flight), so only the kernel's end (cuda_stream_sync) completes it.
  TmaGW,
};
constexpr int kNumQuals = 14;
using QualMask = uint32_t;

inline QualMask bit(Qual q) { return QualMask(1) << static_cast<int>(q); }
const char *qual_name(Qual q);
std::optional<Qual> parse_qual(const std::string &s);
/// `{cuda1,cuda2}`; `{}` for the empty set.
std::string qual_set_string(QualMask m);

/// Visibility flags of a (thread, qual, flag) triple. A new in-order record
/// holds all four; an out-of-order one only Issue; a temporal augment only Temp;
/// an atomic access plants Atom for every thread on its atomic quals.
enum Flag : int { Atom = 0, Temp = 1, Full = 2, Issue = 3 };
constexpr int kNumFlags = 4;
const char *flag_name(int f);

/// A sync-timeline: `full` quals are ordered fully, `temp` quals only in time.
/// The temporal set always includes the full set.
struct SyncTl {
  QualMask full = 0;
  QualMask temp = 0;
  bool operator==(const SyncTl &o) const { return full == o.full && temp == o.temp; }
};

/// Does ordering first -> second make generic-proxy memory accesses fully
/// visible to async-proxy ones (TMA, wgmma)? The model grants that from the
/// tables above (a generic qual witnessed on `first`, an async-proxy qual in
/// `second`'s full set); on hardware it takes a `fence.proxy.async` by the
/// generic writer, so codegen emits one exactly where this is true.
/// (Temporal order -- a generic read before an async write -- needs none.)
bool needs_proxy_fence(const SyncTl &first, const SyncTl &second);

/// The named sync-timelines (docs/sync.md); nullopt if unknown.
std::optional<SyncTl> lookup_sync_tl(const std::string &name);
/// The table name when `tl` is one, else the explicit form `{full}~{temp-only}`.
std::string sync_tl_string(const SyncTl &tl);

} // namespace exgc::sync

#endif
