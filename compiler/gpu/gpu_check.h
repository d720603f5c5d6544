// gpu_check.h - the GPU semantics stage ------------------------------------//
// Owns: the checks that a proc's parallel reading can agree with its
// sequential meaning, as far as they need no sizes (docs/gpu.md,
// "Checks"): which collective runs each statement of
// a device function; `cuda_threads` loops fit their collective; writes are
// executed by one thread; Fences are at a scope the hardware can order; an
// instruction runs at exactly its `collective:`;
// distributed memory (registers per thread, shared memory per CTA) is indexed
// so that every logical element has one owner. Runs after typecheck and
// schedules, before codegen, which takes its facts (facts.h).
// The kernel's structure is checked here too (launch_config.h, task_nest.h):
// every device function of a proc it accepts has its KernelFacts, with its
// arrays sized and its shared memory laid out (shared_layout.h), and what
// host and device code may touch (host_code.h). The backend only says what
// it cannot emit.
#pragma once
#include <functional>
#include <string>

#include "compiler/gpu/facts.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// The proc or instruction a call in the checked proc names (null if none).
using CalleeLookup = std::function<Proc(const std::string &name)>;

/// Checks every `with CudaDeviceFunction` of `proc` and records its facts in
/// `out`. False after reporting at least one error.
bool check_gpu_semantics(const ProcNode &proc, const CalleeLookup &callee, DiagEngine &diag,
                         GpuFacts &out);

} // namespace exgc::gpu
