// emu/exec/device_impl.h - the engine's Device: modules, memory, launches ---//
// Owns: the parsed modules, the map of live device memory (allocations and
// module variables; every global access is checked against it), each
// kernel's decoded form (made on first launch) and launch validation.
#pragma once

#include "emu/exec/buffer_pool.h"
#include "emu/exec/decoded.h"
#include "emu/exec/device.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace emu {

class DeviceImpl final : public Device {
public:
  explicit DeviceImpl(const Options &opt) : opt_(opt) { props_.sm_count = opt.sm_count; }
  ~DeviceImpl() override;

  void add_module(const std::string &ptx_text, const std::string &origin) override;
  /// Adds an already parsed module (tests build modules without a parser too).
  void add_parsed_module(ptx::Module m);
  const ptx::Function *find_kernel(const std::string &name) const override;
  void *variable(const std::string &name, size_t *bytes) override;
  void *alloc(size_t bytes) override;
  bool free(void *p) override;
  bool is_device_range(const void *p, size_t bytes) const override;
  LaunchError launch(const std::string &kernel, const LaunchConfig &config, void **args) override;
  void set_max_dynamic_smem(const std::string &kernel, size_t bytes) override;
  int max_active_blocks(const std::string &kernel, uint32_t threads, size_t dynamic_smem) override;
  const DeviceProps &props() const override { return props_; }
  const Options &options() const override { return opt_; }
  Options &mutable_options() { return opt_; }

  /// The live range [lo, hi) holding [addr, addr + bytes), or false.
  bool find_range(uint64_t addr, uint64_t bytes, uint64_t &lo, uint64_t &hi) const;
  /// The address of a module-scope global/const variable, or 0.
  uint64_t global_symbol(const std::string &name) const;
  /// The module that defines `fn`.
  const ptx::Module *module_of(const ptx::Function *fn) const;

private:
  struct Kernel {
    const ptx::Module *module = nullptr;
    const ptx::Function *fn = nullptr;
    std::unique_ptr<exec::Decoded> decoded;
    size_t max_dyn_smem = 48 * 1024;
  };
  Kernel *kernel(const std::string &name);
  /// The kernel's decoded form, made on first use.
  const exec::Decoded &decoded(Kernel &k);

  Options opt_;
  DeviceProps props_;
  std::vector<std::unique_ptr<ptx::Module>> modules_;
  std::map<std::string, Kernel> kernels_;
  std::map<uint64_t, uint64_t> live_; ///< start -> end of each allocation and variable
  std::map<std::string, std::pair<void *, size_t>> vars_;
  std::vector<void *> var_storage_;
  exec::BufferPool pool_; ///< CTA and warp buffers between launches (buffer_pool.h)
};

} // namespace emu
