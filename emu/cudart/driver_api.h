// emu/cudart/driver_api.h - the driver functions libcuda.so.1 stands in for -//
// Owns: the table cudaGetDriverEntryPoint* hands out (the same functions a
// program linked with -lcuda calls directly, defined in driver_api.cpp).
#pragma once

namespace emu::cudart {

/// The driver function named `symbol` ("cuTensorMapEncodeTiled", ...), or
/// null; `since` gets the CUDA version (e.g. 12000) that introduced it.
void *driver_entry_point(const char *symbol, int *since);

} // namespace emu::cudart
