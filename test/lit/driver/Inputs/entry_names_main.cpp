// entry_names_main.cpp - one program calling the three CPU references of
// entry_names.exg: plain extern "C", with --function-prefix=ref_, and with
// --namespace=app::cpu. Each header is included by its folder (plain/, ref/, ns/).
#include <cstdio>

#include "ns/entry_names.h"
#include "plain/entry_names.h"
#include "ref/entry_names.h"

static void show(const char *name, int rc, const float *x) {
  std::printf("%s %d: %g %g %g\n", name, rc, x[0], x[1], x[2]);
}

int main() {
  float a[3] = {1, 2, 3}, b[3] = {1, 2, 3}, c[3] = {1, 2, 3};
  show("double_it", double_it(3, a), a);
  show("ref_double_it", ref_double_it(3, b), b);
  show("app::cpu::double_it", app::cpu::double_it(3, c), c);
  return 0;
}
