// cuda_runtime_api.h (emulated): see cuda_runtime.h.
#pragma once
#include "cuda_runtime.h"
