// emu/exec/ops_tma.cpp - TMA (cp.async.bulk*) instructions -----------------//
#include "emu/exec/ops.h"

namespace emu::exec {

bool decode_tma(DecodeCtx &c, DInstr &d) { return false; }

} // namespace emu::exec
