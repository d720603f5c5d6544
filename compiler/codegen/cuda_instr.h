// cuda_instr.h - instruction calls and tensor maps in CUDA code -------------//
// Owns: what the CUDA backend writes for an instruction call in device code
// (the instruction's `emit:` string with its holes filled: `{p}` a template
// parameter's constant, `{x}` what x's memory passes: a pointer into shared
// memory at the window's origin, `exg::sm90::TmaWindow<R>` for a tensor-map
// window, the `AccumF32` fragment for `Sm90_RmemMatrixD` (`FragA16` for
// `Sm90_RmemMatrixA`), `exg::Win<T, R>`
// for a global-memory window, a value for a scalar; `{bar}` the shared
// address of this CTA's slot of the trailing barrier, `{cta_mask}` the 16-bit
// mask of the cluster CTAs a multicast reaches, from the GPU stage's group),
// and the host code of
// a tensor-map window (`A_map = A[:, :] @ Sm90_tensorMap(swizzle, box...)`,
// docs/hopper.md): a CUtensorMap encoded by the runtime's encoder, which the
// kernel receives as a `const __grid_constant__ CUtensorMap` parameter.
#pragma once
#include <functional>
#include <string>

#include "compiler/codegen/stmt_emitter.h"
#include "compiler/gpu/facts.h"

namespace exgc::codegen {

/// The line calling `instr` for `c`, or empty after reporting. `bar` gives
/// the `{bar}` value of a trailing barrier (empty after reporting);
/// `multicast` the CTA group of a multicast call (null: not one).
std::string instr_call_line(const CallStmt *c, const ProcNode &instr, ExprEmitter &ex,
                            const std::function<std::string(const Expr &)> &bar,
                            const gpu::MulticastGroup *multicast);

/// Host code encoding the tensor map of window statement `w` and its
/// binding (a View with `tensor_map`). False after reporting.
bool emit_tensor_map(const WindowStmt *w, ExprEmitter &ex, Writer &out, NameScope &names,
                     const std::string &error_return);

} // namespace exgc::codegen
