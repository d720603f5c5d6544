// task_nest.h - the `cuda_tasks` nest of a device function -----------------//
// Owns: the shape every kernel has, checked once in the GPU stage: the body of
// `with CudaDeviceFunction` is a nest of `cuda_tasks` loops, each alone in its
// parent's body, whose bounds are host values (the task space is a box). The
// CUDA backend launches the grid from the nest it records. (The KernelChecker
// refuses task loops and device functions inside the task body; host_code.h
// refuses GPU loops outside device functions.)
#pragma once
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

struct TaskNest {
  std::vector<const For *> loops; // outermost first
  const Block *body = nullptr;    // the innermost loop's body: one task
};

/// Reads the nest of `w`; reports its first flaw (TaskNestShape,
/// TaskBoundsDependOnTask) and returns false.
bool read_task_nest(const With *w, DiagEngine &diag, TaskNest &nest);

/// Whether `s` is a `cuda_tasks` loop.
bool is_task_loop(const Stmt &s);

} // namespace exgc::gpu
