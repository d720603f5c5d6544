// stage_source.h - the buffer a stage_mem window reads -------------------------//
// Owns: finding the buffer a `stage_mem` window names, an argument, an
// allocation or a window statement (`A_map = A[:, :] @ Sm90_tensorMap(...)`,
// which bind_window makes), with its type as seen through the window, and an
// effect summary in which accesses through that buffer stay on it.
#pragma once
#include <string>

#include "compiler/analysis/effects.h"
#include "compiler/ir/nodes.h"

namespace exgc::schedule {

struct StageSource {
  Sym sym;
  Type type;           // a window statement's: its slices' extents, its memory
  Stmt window;         // the window statement, or null
};

/// The buffer named `n` in `p`: an argument, the first allocation or window
/// statement of that name. False when there is none or it is not data.
bool find_stage_source(const ProcNode &p, const std::string &n, StageSource &out);

/// `p` as the effect analysis of stage_mem must see it: without the window
/// statement of `src` (if any), so that accesses of the window name are
/// accesses of that name in its own coordinates, not of the buffer it views.
Proc effects_view(const Proc &p, const StageSource &src);

} // namespace exgc::schedule
