// driver_fuzz.cpp - libFuzzer target: exgc's command line ------------------//
//
// The bytes are arguments, one a line, after `exgc INPUT` where INPUT is one
// of a few fixed modules (the first byte picks it). exgc_main parses them as
// the executable does and runs the driver; outputs land in the scratch
// directory, the working directory of the run (so corpus paths given to the
// fuzzer must be absolute). Arguments that could reach outside it are
// dropped: any with a '/', response files ('@...'), and those that end the
// process (help, version, print-options).
#include "test/fuzz/fuzz_support.h"
#include "tools/exgc/command_line.h"

#include <vector>

namespace {

const char *const kModules[] = {
    R"(proc saxpy(n: size, a: f32, x: f32[n], y: f32[n]):
    for i in seq(0, n):
        y[i] += a * x[i]

schedule s from saxpy:
    p = divide_loop(p, p.find("i"), 4, ["io", "ii"], "cut")
)",
    R"(proc f(n: size, x: f32[n]):
    assert n % 4 == 0
    for i in seq(0, n):
        x[i] = 2.0
)",
    "proc broken(:\n",
};

bool allowed(const std::string &a) {
  if (a.find('/') != std::string::npos || (!a.empty() && a[0] == '@'))
    return false;
  // LLVM's parser exits on -h and anything it reads as help (`--helx`
  // included), on --version and on the print-options flags.
  size_t name = a.find_first_not_of('-');
  if (name != std::string::npos && name > 0 &&
      (a[name] == 'h' || a.compare(name, 7, "version") == 0))
    return false;
  return a.find("print-options") == std::string::npos &&
         a.find("print-all-options") == std::string::npos;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Relative outputs (-o x.cu, derived names) go to the scratch directory.
  if (chdir(exgc::fuzz::scratch_dir().c_str()) != 0)
    exgc::fuzz::finding("cannot enter the scratch directory");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  const size_t n_modules = sizeof(kModules) / sizeof(kModules[0]);
  std::string input = exgc::fuzz::scratch_file("m.exg", kModules[data[0] % n_modules]);
  std::vector<std::string> args = {"exgc", input};
  std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  size_t at = 0;
  while (at <= rest.size() && args.size() < 64) {
    size_t nl = rest.find('\n', at);
    std::string a = rest.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (allowed(a) && a.find('\0') == std::string::npos)
      args.push_back(a);
    if (nl == std::string::npos)
      break;
    at = nl + 1;
  }
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  argv.push_back(nullptr);
  int rc = exgc_main(static_cast<int>(args.size()), argv.data());
  if (rc == 3)
    exgc::fuzz::finding("internal error (exit 3)");
  if (rc < 0 || rc > 3)
    exgc::fuzz::finding("exit code " + std::to_string(rc));
  return 0;
}
