/* cpp_bf16_main.c - calls the bf16 CPU reference of cpp_bf16.exg from C. */
#include <stdio.h>

#include "k.h"

int main(void) {
  exg_bf16 x[3] = {{0x3F80}, {0x4040}, {0x3F81}}; /* 1.0, 3.0, 1.0078125 */
  exg_bf16 y[3] = {{0}, {0}, {0}};
  float s[3] = {1.0f, 1.0f, 1.0f};
  if (halve_bf16(3, x, y, s) != 0)
    return 1;
  printf("%x %x %x\n", y[0].bits, y[1].bits, y[2].bits);
  printf("%g %g %.8g\n", s[0], s[1], s[2]);
  return 0;
}
