// tools/exg-emu/main.cpp - run an nvcc-built program on the emulator --------//
// `exg-emu [options] -- ./prog args...` execs the program with the stand-in
// libcudart.so.13 / libcuda.so.1 first on LD_LIBRARY_PATH and the run's
// options in EXG_EMU_* variables (emu/support/report.h); the program then
// runs on the emulated H200. `exg-emu --nvcc-flags` prints how to build it;
// `--allow=KIND,...` lets a third-party kernel with known issues run on past
// the hazards of those detectors (emu/support/report.h, Detector).
// Exit status: the program's own; 101-108 when the emulator stops it on a
// hazard (docs/emulator.md); 2 for a bad command line, missing libraries or a
// program that cannot be started.
#include "emu/cudart/driver_args.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using emu::cudart::DriverArgs;

namespace {

[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "exg-emu: error: %s\n", msg.c_str());
  std::exit(2);
}

bool exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// <bin>/../lib/exg-emu in a build tree, <bin>/../<libdir>/exg-emu installed.
std::string library_dir() {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    fail("cannot find this program's own path (/proc/self/exe)");
  self[n] = '\0';
  std::string bin(self);
  bin = bin.substr(0, bin.rfind('/'));
  std::vector<std::string> candidates = {bin + "/../lib/exg-emu",
                                         bin + "/../" EXGEMU_INSTALL_LIBDIR "/exg-emu"};
  for (const std::string &dir : candidates)
    if (exists(dir + "/libcudart.so.13") && exists(dir + "/libcuda.so.1"))
      return dir;
  fail("the stand-in libraries libcudart.so.13 and libcuda.so.1 are not in " + candidates[0] +
       " nor in " + candidates[1] + "; is exg-emu installed whole?");
}

} // namespace

int main(int argc, char **argv) {
  DriverArgs args = emu::cudart::parse_driver_args(std::vector<std::string>(argv + 1, argv + argc));
  switch (args.action) {
  case DriverArgs::Action::Error:
    std::fprintf(stderr, "exg-emu: error: %s\n%s", args.error.c_str(),
                 emu::cudart::driver_usage());
    return 2;
  case DriverArgs::Action::Help:
    std::fputs(emu::cudart::driver_usage(), stdout);
    return 0;
  case DriverArgs::Action::Version:
    std::printf("exg-emu %s (emulated NVIDIA H200, sm_90a; CUDA 13 runtime API)\n",
                EXGEMU_VERSION);
    return 0;
  case DriverArgs::Action::PrintNvccFlags:
    std::printf("%s\n", emu::cudart::nvcc_flags());
    return 0;
  case DriverArgs::Action::Run:
    break;
  }

  std::string libs = library_dir();
  const char *old = std::getenv("LD_LIBRARY_PATH");
  std::string path = old && *old ? libs + ":" + old : libs;
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  for (const auto &[name, value] : args.env)
    setenv(name.c_str(), value.c_str(), 1);

  std::vector<char *> child;
  for (std::string &word : args.program)
    child.push_back(word.data());
  child.push_back(nullptr);
  execvp(child[0], child.data());
  fail("cannot run '" + args.program[0] + "': " + std::strerror(errno));
}
