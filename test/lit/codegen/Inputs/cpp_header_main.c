/* cpp_header_main.c - C calls the CPU reference of cpp_header.exg through its header. */
#include <stdio.h>

#include "k.h"

int main(void) {
  float x[3] = {1, 2, 3};
  int rc = add_one(3, x);
  printf("%d %g %g %g\n", rc, x[0], x[1], x[2]);
  return 0;
}
