// emu/exec/profile.cpp - dynamic instruction counts by class -----------------//
#include "emu/exec/profile.h"

#include "emu/exec/machine.h"
#include "emu/exec/types.h"
#include "emu/ptx/ast.h"

#include <string>

namespace emu::exec {

namespace {

using C = ProfileClass;

Ty first_type(const ptx::Instr &in) {
  for (const std::string &m : in.mods)
    if (Ty t = type_from_name(m); t != Ty::None)
      return t;
  return Ty::None;
}

bool has_mod(const ptx::Instr &in, const char *m) {
  for (const std::string &s : in.mods)
    if (s == m)
      return true;
  return false;
}

// types.h's is_float, and the fp8 types.
bool is_float_like(Ty t) {
  return is_float(t) || t == Ty::E4M3 || t == Ty::E5M2 || t == Ty::E4M3x2 || t == Ty::E5M2x2;
}

bool is_64(Ty t) { return t == Ty::B64 || t == Ty::U64 || t == Ty::S64; }

// ld/st/ldmatrix/stmatrix by state space (the first space modifier).
C memory_class(const ptx::Instr &in, bool load) {
  for (const std::string &m : in.mods) {
    if (m.rfind("shared", 0) == 0)
      return load ? C::LdShared : C::StShared;
    if (m == "global")
      return load ? C::LdGlobal : C::StGlobal;
  }
  return load ? C::LdOther : C::StOther;
}

} // namespace

ProfileClass profile_class(const ptx::Instr &in) {
  const std::string &op = in.opcode;
  if (op == "wgmma")
    return has_mod(in, "mma_async") ? C::Tensor : C::TensorSync;
  if (op == "mma")
    return C::Tensor;
  if (op == "cp")
    return has_mod(in, "bulk") ? C::Tma : C::LdGlobal; // cp.async (sm80) reads global
  if (op == "mbarrier" || op == "bar" || op == "barrier" || op == "fence" || op == "membar")
    return C::Sync;
  if (op == "bra" || op == "brx" || op == "call" || op == "ret" || op == "exit")
    return C::Branch;
  if (op == "shfl" || op == "vote" || op == "match" || op == "redux" || op == "elect" ||
      op == "activemask")
    return C::Warp;
  if (op == "ld" || op == "ldu" || op == "ldmatrix")
    return memory_class(in, true);
  if (op == "st" || op == "stmatrix")
    return memory_class(in, false);
  if (op == "atom" || op == "red")
    return C::Atomic;
  if (op == "cvt")
    return C::Convert;
  if (op == "mov")
    return C::Move;
  if (op == "setmaxnreg" || op == "prefetch" || op == "prefetchu" || op == "createpolicy" ||
      op == "mapa" || op == "getctarank" || op == "nanosleep" || op == "trap" || op == "brkpt" ||
      op == "pmevent" || op == "discard" || op == "applypriority" || op == "griddepcontrol")
    return C::Other;
  Ty t = first_type(in);
  if (is_float_like(t))
    return C::Float;
  if (is_64(t))
    return op == "div" || op == "rem" ? C::Div64 : C::Int64;
  return C::Int32; // integer, predicate and address arithmetic (cvta, isspacep, ...)
}

const char *profile_class_name(ProfileClass c) {
  static const char *const names[kProfileClasses] = {
      "tensor", "tensor_sync", "tma", "sync", "int32", "int64", "div64", "float", "convert",
      "move", "branch", "warp", "ld_shared", "st_shared", "ld_global", "st_global", "ld_other",
      "st_other", "atomic", "other"};
  return names[size_t(c)];
}

void write_profile(const Run &run, std::FILE *f) {
  std::fprintf(f, "{\"kernel\": \"%s\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
                  "\"cluster\": [%u, %u, %u], \"warpgroups\": [",
               run.kernel.c_str(), run.grid[0], run.grid[1], run.grid[2], run.block[0], run.block[1],
               run.block[2], run.cluster_dim[0], run.cluster_dim[1], run.cluster_dim[2]);
  for (size_t g = 0; g * 4 < run.profile.size(); ++g) {
    ProfileCounts sum{};
    for (size_t w = g * 4; w < run.profile.size() && w < g * 4 + 4; ++w)
      for (size_t c = 0; c < kProfileClasses; ++c)
        sum[c] += run.profile[w][c];
    std::fprintf(f, "%s{", g ? ", " : "");
    bool first = true;
    for (size_t c = 0; c < kProfileClasses; ++c)
      if (sum[c]) {
        std::fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", profile_class_name(ProfileClass(c)),
                     (unsigned long long)sum[c]);
        first = false;
      }
    std::fprintf(f, "}");
  }
  std::fprintf(f, "]}\n");
}

} // namespace emu::exec
