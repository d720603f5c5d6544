// emu/exec/ops_wgmma.cpp - wgmma instructions -------------------------------//
#include "emu/exec/ops.h"

namespace emu::exec {

bool decode_wgmma(DecodeCtx &c, DInstr &d) { return false; }

} // namespace emu::exec
