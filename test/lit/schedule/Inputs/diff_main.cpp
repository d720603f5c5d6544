// Differential check of a schedule: the original proc `ref` and each
// scheduled proc (named in DIFF_PROCS) run on the same inputs; every output
// must match bit for bit. Inputs are small integers, so sums are exact.
// Compiled by the lit tests with -DDIFF_PROCS=... and -DDIFF_SIG=...
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// The signature every compared proc has: (n, m, a[n*m], b[n*m], c[n*m]).
extern "C" {
#define X(name) int name(int64_t n, int64_t m, float *a, float *b, float *c);
DIFF_PROCS
#undef X
}

int main() {
  using Fn = int (*)(int64_t, int64_t, float *, float *, float *);
  struct P { const char *name; Fn fn; };
  std::vector<P> procs = {
#define X(name) {#name, name},
      DIFF_PROCS
#undef X
  };
  int failures = 0, runs = 0;
  for (int64_t n = 1; n <= 13; ++n)
    for (int64_t m = 1; m <= 6; ++m) {
      size_t sz = static_cast<size_t>(n * m);
      std::vector<float> a(sz), b0(sz), c0(sz);
      for (size_t i = 0; i < sz; ++i) {
        a[i] = static_cast<float>((i * 7 + n * 3 + m) % 11);
        b0[i] = static_cast<float>((i * 5 + 1) % 13);
        c0[i] = static_cast<float>((i * 3 + 2) % 5);
      }
      std::vector<float> ra = a, rb = b0, rc = c0;
      int rr = procs[0].fn(n, m, ra.data(), rb.data(), rc.data());
      for (size_t k = 1; k < procs.size(); ++k) {
        std::vector<float> xa = a, xb = b0, xc = c0;
        int xr = procs[k].fn(n, m, xa.data(), xb.data(), xc.data());
        ++runs;
        if (xr != rr || std::memcmp(xa.data(), ra.data(), sz * 4) || std::memcmp(xb.data(), rb.data(), sz * 4) ||
            std::memcmp(xc.data(), rc.data(), sz * 4)) {
          std::printf("MISMATCH %s n=%lld m=%lld\n", procs[k].name, (long long)n, (long long)m);
          ++failures;
        }
      }
    }
  std::printf("runs=%d mismatches=%d\n", runs, failures);
  return failures != 0;
}
