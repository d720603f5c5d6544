// app.cpp - calls the CPU reference through its generated header and prints
// y = scale(x) + y for x[i] = i, y[i] = 1.
#include <cstdio>

#include "scale_add.h"

int main() {
  float x[4] = {0, 1, 2, 3}, y[4] = {1, 1, 1, 1};
  if (int rc = scale_add(4, x, y)) {
    std::printf("precondition failed at line %d\n", rc);
    return 1;
  }
  std::printf("y = %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  return 0;
}
