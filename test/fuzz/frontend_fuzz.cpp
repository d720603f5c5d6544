// frontend_fuzz.cpp - libFuzzer target: the front end on arbitrary bytes -----//
//
// The bytes are a module: parse, build, imports (the stdlib's), typecheck and
// the exact bounds checks, as `exgc --verify` runs them before schedules.
// Seeds: every .exg of the tests and examples; dictionary: exg.dict.
#include "test/fuzz/front_end_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  exgc::fuzz::run_front_end(std::string(reinterpret_cast<const char *>(data), size), false);
  return 0;
}
