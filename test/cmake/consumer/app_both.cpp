// app_both.cpp - two libraries of one module in one program: the CPU
// reference kernels_ref (extern "C" scale_add) and kernels_ref_ns (NAMESPACE
// consumer::ref), each header included by its target's folder.
#include <cstdio>

#include "kernels_ref/scale_add.h"
#include "kernels_ref_ns/scale_add.h"

int main() {
  float x[4] = {0, 1, 2, 3}, y[4] = {1, 1, 1, 1};
  float x2[4] = {0, 1, 2, 3}, y2[4] = {1, 1, 1, 1};
  int rc = scale_add(4, x, y), rc2 = consumer::ref::scale_add(4, x2, y2);
  std::printf("scale_add %d: y = %g %g %g %g\n", rc, y[0], y[1], y[2], y[3]);
  std::printf("consumer::ref::scale_add %d: y = %g %g %g %g\n", rc2, y2[0], y2[1], y2[2], y2[3]);
  return 0;
}
