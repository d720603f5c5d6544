/* cpp_f16_main.c - calls the f16 CPU reference of cpp_f16.exg from C. */
#include <stdio.h>

#include "k.h"

int main(void) {
  exg_f16 x[3] = {{0x3C00}, {0x4200}, {0x3C01}}; /* 1.0, 3.0, 1 + 2^-10 */
  exg_f16 y[3] = {{0}, {0}, {0}};
  float s[3] = {1.0f, 1.0f, 1.0f};
  if (halve_f16(3, x, y, s) != 0)
    return 1;
  printf("%x %x %x\n", y[0].bits, y[1].bits, y[2].bits);
  printf("%g %g %.8g\n", s[0], s[1], s[2]);
  return 0;
}
