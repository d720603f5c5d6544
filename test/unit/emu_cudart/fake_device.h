// test/unit/emu_cudart/fake_device.h - a Device that records, for the runtime's tests //
// The stand-in runtime is tested without the engine: this Device keeps the
// PTX it is given, hands out malloc'ed memory it tracks, answers
// find_kernel for the names a test declares, and records each launch.
// One test file defines emu::Device::get() to return the one FakeDevice.
#pragma once

#include "emu/exec/device.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace emu::test {

class FakeDevice final : public Device {
public:
  struct Launch {
    std::string kernel;
    LaunchConfig config;
    std::vector<uint64_t> args; ///< 8 bytes of each argument (tests pass 8-byte ones)
  };

  std::vector<std::string> modules;          ///< PTX texts, in the order added
  std::map<std::string, ptx::Function> kernels;
  std::map<std::string, std::vector<uint8_t>> vars;
  std::map<void *, size_t> live;
  std::vector<Launch> launches;
  std::map<std::string, size_t> max_dynamic_smem;
  size_t arg_count = 0;                      ///< how many arguments launch() reads
  LaunchError next_launch_error = 0;

  void declare_kernel(const std::string &name) {
    ptx::Function f;
    f.name = name;
    f.is_entry = true;
    kernels[name] = f;
  }

  int active_blocks = 3; ///< what max_active_blocks answers for a known kernel
  int max_active_blocks(const std::string &name, uint32_t, size_t) override {
    return kernels.count(name) ? active_blocks : -1;
  }

  void add_module(const std::string &ptx_text, const std::string &origin) override {
    modules.push_back(ptx_text);
  }
  const ptx::Function *find_kernel(const std::string &name) const override {
    auto it = kernels.find(name);
    return it == kernels.end() ? nullptr : &it->second;
  }
  void *variable(const std::string &name, size_t *bytes) override {
    auto it = vars.find(name);
    if (it == vars.end())
      return nullptr;
    *bytes = it->second.size();
    return it->second.data();
  }
  void *alloc(size_t bytes) override {
    void *p = std::malloc(bytes);
    live[p] = bytes;
    return p;
  }
  bool free(void *p) override {
    if (!live.erase(p))
      return false;
    std::free(p);
    return true;
  }
  bool is_device_range(const void *p, size_t bytes) const override {
    auto c = static_cast<const char *>(p);
    for (auto &[base, size] : live)
      if (c >= static_cast<const char *>(base) && c + bytes <= static_cast<const char *>(base) + size)
        return true;
    for (auto &[name, v] : vars)
      if (c >= reinterpret_cast<const char *>(v.data()) &&
          c + bytes <= reinterpret_cast<const char *>(v.data()) + v.size())
        return true;
    return false;
  }
  LaunchError launch(const std::string &kernel, const LaunchConfig &config,
                     void **args) override {
    Launch l{kernel, config, {}};
    for (size_t i = 0; i < arg_count; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, args[i], sizeof v);
      l.args.push_back(v);
    }
    launches.push_back(l);
    return next_launch_error;
  }
  void set_max_dynamic_smem(const std::string &kernel, size_t bytes) override {
    max_dynamic_smem[kernel] = bytes;
  }
  const DeviceProps &props() const override { return props_; }
  const Options &options() const override { return options_; }

private:
  DeviceProps props_;
  Options options_;
};

/// The process's FakeDevice (what Device::get() returns in these tests).
FakeDevice &fake_device();

} // namespace emu::test
