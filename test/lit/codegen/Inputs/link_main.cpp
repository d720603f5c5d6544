// Calls one function of each of the two CPU references of link_two_files.exg.
#include <cstdio>

extern "C" int sum_a(float *x, float *s);
extern "C" int sum_b(float *x, float *s);

int main() {
  float x[4], a = 0, b = 0;
  if (sum_a(x, &a) != 0 || sum_b(x, &b) != 0)
    return 1;
  std::printf("sum_a=%g sum_b=%g\n", a, b);
  return 0;
}
