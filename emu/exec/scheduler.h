// emu/exec/scheduler.h - running a validated launch to completion ----------//
#pragma once

#include "emu/exec/machine.h"

namespace emu::exec {

/// Runs every cluster of the launch (one at a time, in a seeded order), each
/// as cooperative warps on this thread. Hazards report and exit.
void execute(Run &run);

} // namespace emu::exec
