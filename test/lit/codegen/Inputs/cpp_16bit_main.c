/* cpp_16bit_main.c - calls the CPU reference of cpp_bf16.exg or cpp_f16.exg from C: the
   element type TYPE, the function HALVE and the bits X0, X1, X2 of its inputs come from -D. */
#include <stdio.h>

#include "k.h"

int main(void) {
  TYPE x[3] = {{X0}, {X1}, {X2}};
  TYPE y[3] = {{0}, {0}, {0}};
  float s[3] = {1.0f, 1.0f, 1.0f};
  if (HALVE(3, x, y, s) != 0)
    return 1;
  printf("%x %x %x\n", y[0].bits, y[1].bits, y[2].bits);
  printf("%g %g %.8g\n", s[0], s[1], s[2]);
  return 0;
}
