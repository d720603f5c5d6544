// printf_calls.cu - the source of printf_calls.ptx, a kernel that calls .func
// functions (one returning a struct) and printf. Regenerate with
//   nvcc -std=c++17 -gencode=arch=compute_90a,code=compute_90a -ptx printf_calls.cu
// (call_test.cpp repeats the format and arguments on the host).
#include <cstdio>

struct Pair {
  int a;
  double b;
};

__device__ __noinline__ Pair halve(int a, double b) { return Pair{a * 2, b / 2}; }

__device__ __noinline__ long long scale(long long v, int by, float f) { return v * by + (long long)f; }

extern "C" __global__ void printf_calls(int *out, const char *name, double x) {
  int t = threadIdx.x;
  Pair p = halve(t, x);
  out[t] = p.a + (int)scale(t, 3, 0.5f);
  if (t < 3)
    printf("t=%d [%4i] [%-4d] u=%u x=%x X=%#X o=%o c=%c s=%s [%-8s|%.3s] f=%f [%8.3f] e=%e g=%g "
           "p=%p ld=%ld lld=%lld hd=%hd hhx=%hhx [%*d] %% b=%.2f\n",
           t, t, t, 42u + t, 255 + t, 255, 8, 'A' + t, name, "pad", name, p.b, x, 12345.678, 0.0001,
           (void *)out, -5L, 1LL << 40, (short)-3, (unsigned char)0x1ff, 6, t, x / 3);
}
