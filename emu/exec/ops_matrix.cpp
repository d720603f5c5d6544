// emu/exec/ops_matrix.cpp - ldmatrix / stmatrix -----------------------------//
#include "emu/exec/ops.h"

namespace emu::exec {

bool decode_matrix(DecodeCtx &c, DInstr &d) { return false; }

} // namespace emu::exec
