// schedule_fuzz.cpp - libFuzzer target: schedule scripts on fixed procs ------//
//
// The bytes follow a fixed module of procs (kProcs) in one file, so that
// mutations go to `schedule NAME from PROC:` blocks and their scripts rather
// than to the procs: every primitive, cursor method and builtin runs against
// the same loops, windows and allocations. Seeds: scripts in the style of
// test/fuzz/script_fuzz.py and the schedules of the tests.
#include "test/fuzz/front_end_run.h"

namespace {

const char *const kProcs = R"(proc f(n: size, x: f32[n], y: f32[8, 8]):
    assert n % 4 == 0
    t: f32[4]
    for i in seq(0, n):
        t[0] = x[i]
        for j in seq(0, 8):
            y[j, 0] += t[0] * 2.0
        x[i] = t[0]
    pass

proc mm(M: size, N: size, K: size, A: f32[M, K], B: f32[K, N], C: f32[M, N]):
    assert M % 16 == 0
    assert N % 16 == 0
    for i in seq(0, M):
        for j in seq(0, N):
            C[i, j] = 0.0
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]

)";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  exgc::fuzz::run_front_end(kProcs + std::string(reinterpret_cast<const char *>(data), size),
                            true);
  return 0;
}
