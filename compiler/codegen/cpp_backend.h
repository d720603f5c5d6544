// cpp_backend.h - the CPU reference backend (`exgc --emit=cpp`) -----------//
// Owns: emit_cpp, which writes one self-contained C++17 file computing the
// sequential meaning of procs: loop modes, `with` blocks and sync statements
// are ignored, instruction calls run the instruction's behavior, proc calls
// call the callee (emitted as a helper with internal linkage, so several
// generated files link into one program). Only the requested procs are
// public (extern "C", or in a namespace: EntryNaming); their ABI is in abi.h
// and docs/abi.md. Each returns 0, or the
// source line of the first precondition (`assert`, or a `size` argument that
// is not positive) its arguments violate, before doing any work.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "compiler/codegen/c_names.h"
#include "compiler/frontend/program.h"
#include "compiler/support/diagnostics.h"

namespace exgc {

/// Where the header of a CPU reference goes: `name` is what the .cpp
/// includes (`k.h`, beside `k.cpp`), `out` receives its text.
struct CppHeader {
  std::string name;
  std::ostream &out;
};

/// Writes the CPU reference of `procs` (typechecked procs of `program`) to
/// `out`, and with `header` a C/C++ header declaring its extern "C"
/// functions, which the .cpp then includes. Returns false after reporting
/// what it cannot translate (f16 and fp8 element types, recursion);
/// nothing useful is written then.
/// `difftest_model` is the difftest's numeric model. It computes f32 in
/// double: the difftest compares a proc with its rewrite, and a rewrite may
/// reassociate a long f32 sum, whose rounding error would then hide among (or
/// pose as) real differences. And allocations start with values that
/// `exg_impl::exg_unset_seed` chooses instead of zeros: memory no statement
/// wrote holds an unspecified value (docs/language.md), so the difftest fills
/// it with other values for each proc it compares (zeros are one choice of
/// the plain reference).
/// `entries` names the public functions (a prefix, a namespace instead of
/// extern "C"), so that two references of one module link together.
bool emit_cpp(const Program &program, const std::vector<Proc> &procs, std::ostream &out,
              DiagEngine &diag, bool difftest_model = false, const CppHeader *header = nullptr,
              const codegen::EntryNaming &entries = {});

} // namespace exgc
