// emu/exec/device.cpp - modules, device memory and launch validation -------//
#include "emu/exec/device_impl.h"

#include "emu/exec/machine.h"
#include "emu/exec/scheduler.h"
#include "emu/ptx/parse.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace emu {

namespace {

// The starting register count per thread is not in the PTX (ptxas picks it):
// .maxnreg when given, else the most that lets the block (and, with
// .minnctapersm, that many blocks of .maxntid threads) fit the 64K pool, in
// steps of 8 and at most 248, lowered to the largest setmaxnreg count of the
// kernel when it has one: ptxas compiles such a kernel to that count (CUDA
// 13, -Xptxas -v; the same rule as exgc's GPU stage, compiler/gpu/warp_roles.cpp).
// setmaxnreg's pool accounting starts there.
uint32_t registers_at_launch(const ptx::Function &fn, const exec::Decoded &dec, uint32_t warps) {
  if (fn.maxnreg)
    return fn.maxnreg;
  uint32_t fit = std::min<uint32_t>(65536 / (warps * 32) / 8 * 8, 248);
  uint64_t bound = uint64_t(fn.maxntid[0]) * std::max(1u, fn.maxntid[1]) * std::max(1u, fn.maxntid[2]);
  if (fn.minnctapersm && bound)
    fit = std::min<uint32_t>(fit, uint32_t(65536 / (bound * fn.minnctapersm) / 8 * 8));
  if (dec.largest_setmaxnreg)
    fit = std::min(fit, dec.largest_setmaxnreg);
  return fit;
}

} // namespace

// cudaError_t values (CUDA 13 driver_types.h), the ones a launch can return.
constexpr int kErrInvalidValue = 1;          // cudaErrorInvalidValue
constexpr int kErrInvalidConfiguration = 9;  // cudaErrorInvalidConfiguration
constexpr int kErrInvalidDeviceFunction = 98;// cudaErrorInvalidDeviceFunction
constexpr int kErrLaunchOutOfResources = 701;// cudaErrorLaunchOutOfResources
constexpr int kErrInvalidClusterSize = 912;  // cudaErrorInvalidClusterSize

Device &Device::get() {
  static DeviceImpl *dev = new DeviceImpl(Options::from_environment()); // never destroyed:
  return *dev; // kernels may be launched from static destructors of the program
}

DeviceImpl::~DeviceImpl() {
  for (void *p : var_storage_)
    std::free(p);
}

void DeviceImpl::add_module(const std::string &ptx_text, const std::string &origin) {
  ptx::Module m;
  ptx::ParseError err;
  if (!ptx::parse_module(ptx_text, origin, m, err)) {
    Where w;
    w.ptx_line = err.line;
    report(Hazard::BadProgram, w,
           "cannot parse the PTX of " + origin + " (line " + std::to_string(err.line) + ", column " +
               std::to_string(err.col) + "): " + err.message);
  }
  add_parsed_module(std::move(m));
}

void DeviceImpl::add_parsed_module(ptx::Module m) {
  modules_.push_back(std::make_unique<ptx::Module>(std::move(m)));
  const ptx::Module *mod = modules_.back().get();
  for (const ptx::VarDecl &v : mod->vars) {
    if (v.space != ptx::Space::Global && v.space != ptx::Space::Const)
      continue;
    if (vars_.count(v.name))
      continue; // the same variable registered by another module: the first one holds it
    size_t bytes = v.bytes() ? v.bytes() : 1;
    size_t align = std::max<size_t>(v.align ? v.align : 1, 256);
    void *p = std::aligned_alloc(align, (bytes + align - 1) / align * align);
    std::memset(p, 0, bytes);
    std::memcpy(p, v.init.data(), std::min(bytes, v.init.size()));
    var_storage_.push_back(p);
    vars_[v.name] = {p, v.bytes()};
    live_[uint64_t(uintptr_t(p))] = uint64_t(uintptr_t(p)) + v.bytes();
  }
  for (const ptx::Function &f : mod->functions)
    if (f.is_entry) {
      Kernel &k = kernels_[f.name];
      k.module = mod;
      k.fn = &f;
      k.decoded.reset();
    }
}

const ptx::Function *DeviceImpl::find_kernel(const std::string &name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : it->second.fn;
}

DeviceImpl::Kernel *DeviceImpl::kernel(const std::string &name) {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : &it->second;
}

const ptx::Module *DeviceImpl::module_of(const ptx::Function *fn) const {
  for (const auto &m : modules_)
    for (const ptx::Function &f : m->functions)
      if (&f == fn)
        return m.get();
  return nullptr;
}

void *DeviceImpl::variable(const std::string &name, size_t *bytes) {
  auto it = vars_.find(name);
  if (it == vars_.end())
    return nullptr;
  if (bytes)
    *bytes = it->second.second;
  return it->second.first;
}

uint64_t DeviceImpl::global_symbol(const std::string &name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? 0 : uint64_t(uintptr_t(it->second.first));
}

void *DeviceImpl::alloc(size_t bytes) {
  size_t rounded = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
  if (rounded > props_.global_mem)
    return nullptr;
  void *p = std::aligned_alloc(256, rounded);
  if (!p)
    return nullptr;
  if (opt_.adversarial) // cudaMalloc'd memory is not zeroed: poison it
    std::memset(p, 0xff, rounded);
  live_[uint64_t(uintptr_t(p))] = uint64_t(uintptr_t(p)) + bytes;
  return p;
}

bool DeviceImpl::free(void *p) {
  auto it = live_.find(uint64_t(uintptr_t(p)));
  if (!p || it == live_.end())
    return false;
  for (const auto &v : vars_)
    if (v.second.first == p)
      return false; // a module variable is not an allocation
  live_.erase(it);
  std::free(p);
  return true;
}

bool DeviceImpl::find_range(uint64_t addr, uint64_t bytes, uint64_t &lo, uint64_t &hi) const {
  auto it = live_.upper_bound(addr);
  if (it == live_.begin())
    return false;
  --it;
  if (addr + bytes > it->second || addr + bytes < addr)
    return false;
  lo = it->first;
  hi = it->second;
  return true;
}

bool DeviceImpl::is_device_range(const void *p, size_t bytes) const {
  uint64_t lo, hi;
  return find_range(uint64_t(uintptr_t(p)), bytes, lo, hi);
}

const exec::Decoded &DeviceImpl::decoded(Kernel &k) {
  if (!k.decoded) {
    k.decoded = std::make_unique<exec::Decoded>();
    exec::decode_kernel(*this, *k.module, *k.fn, *k.decoded);
  }
  return *k.decoded;
}

// sm_90's limits per SM: 2048 threads (64 warps), 32 CTAs, 64K registers in
// units of 256 per warp, and the shared memory with 1 KiB the system reserves
// per CTA (CUDA programming guide, compute capability 9.0).
int DeviceImpl::max_active_blocks(const std::string &name, uint32_t threads, size_t dynamic_smem) {
  Kernel *k = kernel(name);
  if (!k)
    return -1;
  if (threads == 0 || threads > 1024)
    return 0;
  const exec::Decoded &dec = decoded(*k);
  const uint32_t warps = (threads + 31) / 32;
  const uint32_t regs = registers_at_launch(*k->fn, dec, warps);
  const uint64_t regs_per_cta = uint64_t((regs * 32 + 255) / 256 * 256) * warps;
  const uint64_t smem_per_cta = uint64_t(dec.dyn_smem_offset - exec::kSmemBase) + dynamic_smem + 1024;
  uint64_t n = std::min<uint64_t>(64 / warps, 32);
  n = std::min<uint64_t>(n, 65536 / regs_per_cta);
  n = std::min<uint64_t>(n, props_.smem_per_sm / smem_per_cta);
  return int(n);
}

void DeviceImpl::set_max_dynamic_smem(const std::string &name, size_t bytes) {
  if (Kernel *k = kernel(name))
    k->max_dyn_smem = bytes;
}

LaunchError DeviceImpl::launch(const std::string &name, const LaunchConfig &cfg, void **args) {
  Kernel *k = kernel(name);
  if (!k)
    return kErrInvalidDeviceFunction;
  const ptx::Function &fn = *k->fn;
  // Block and grid limits (cudaErrorInvalidConfiguration, like the runtime).
  const Dim3 &b = cfg.block, &g = cfg.grid;
  uint64_t threads = uint64_t(b.x) * b.y * b.z;
  if (!b.x || !b.y || !b.z || b.x > 1024 || b.y > 1024 || b.z > 64 || threads > 1024)
    return kErrInvalidConfiguration;
  if (!g.x || !g.y || !g.z || g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535)
    return kErrInvalidConfiguration;
  // Launch bounds: more threads than .maxntid/.reqntid allow cannot launch.
  uint64_t maxn = uint64_t(fn.maxntid[0] ? fn.maxntid[0] : 1) * (fn.maxntid[1] ? fn.maxntid[1] : 1) *
                  (fn.maxntid[2] ? fn.maxntid[2] : 1);
  if (fn.maxntid[0] && threads > maxn)
    return kErrLaunchOutOfResources;
  if (fn.reqntid[0] && !(b.x == fn.reqntid[0] && b.y == (fn.reqntid[1] ? fn.reqntid[1] : 1) &&
                         b.z == (fn.reqntid[2] ? fn.reqntid[2] : 1)))
    return kErrInvalidValue;
  // Clusters: the kernel's .reqnctapercluster, or the launch's attribute.
  Dim3 cl = cfg.cluster;
  if (fn.reqnctapercluster[0]) {
    Dim3 req{fn.reqnctapercluster[0], fn.reqnctapercluster[1] ? fn.reqnctapercluster[1] : 1,
             fn.reqnctapercluster[2] ? fn.reqnctapercluster[2] : 1};
    if (cfg.cluster_given && (cl.x != req.x || cl.y != req.y || cl.z != req.z))
      return kErrInvalidClusterSize;
    cl = req;
  }
  if (!cl.x || !cl.y || !cl.z)
    return kErrInvalidClusterSize;
  uint64_t csize = uint64_t(cl.x) * cl.y * cl.z;
  // 16 is sm_90's largest (non-portable) cluster; the runtime layer admits
  // more than 8 only for a kernel with cudaFuncAttributeNonPortableClusterSizeAllowed.
  if (csize > 16 || g.x % cl.x || g.y % cl.y || g.z % cl.z)
    return kErrInvalidClusterSize;
  // Shared memory: dynamic within the kernel's attribute, total within 227 KiB.
  const exec::Decoded *dec = &decoded(*k);
  if (cfg.dynamic_smem > k->max_dyn_smem)
    return kErrInvalidValue;
  uint64_t total = uint64_t(dec->dyn_smem_offset - exec::kSmemBase) + cfg.dynamic_smem;
  if (dec->static_smem > props_.smem_per_block || total > props_.max_smem_per_block_optin)
    return kErrInvalidValue;

  exec::Run run;
  run.dev = this;
  run.k = dec;
  run.opt = &opt_;
  run.kernel = name;
  run.pool = &pool_;
  run.grid[0] = g.x, run.grid[1] = g.y, run.grid[2] = g.z;
  run.block[0] = b.x, run.block[1] = b.y, run.block[2] = b.z;
  run.cluster_dim[0] = cl.x, run.cluster_dim[1] = cl.y, run.cluster_dim[2] = cl.z;
  run.explicit_cluster = cfg.cluster_given || fn.reqnctapercluster[0] || fn.explicitcluster;
  run.dyn_smem = uint32_t(cfg.dynamic_smem);
  run.total_smem = uint32_t(dec->static_smem + cfg.dynamic_smem);
  run.rng = opt_.seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  if (!run.rng)
    run.rng = 1;
  uint32_t warps = uint32_t((threads + 31) / 32);
  run.regs_per_thread = registers_at_launch(fn, *dec, warps);
  if (run.regs_per_thread * warps * 32 > 65536)
    return kErrLaunchOutOfResources;
  run.params.assign(dec->param_bytes, 0);
  for (size_t i = 0; i < fn.params.size(); ++i)
    if (args && args[i])
      std::memcpy(run.params.data() + dec->param_offsets[i], args[i], fn.params[i].bytes());
  if (opt_.trace)
    std::fprintf(stderr,
                 "exg-emu: launch %s grid (%u,%u,%u) block (%u,%u,%u) cluster (%u,%u,%u) "
                 "dynamic smem %zu\n",
                 name.c_str(), g.x, g.y, g.z, b.x, b.y, b.z, cl.x, cl.y, cl.z, cfg.dynamic_smem);
  if (!opt_.profile.empty())
    run.profile.assign(warps, exec::ProfileCounts{});
  exec::execute(run);
  if (!opt_.profile.empty()) {
    std::FILE *f = std::fopen(opt_.profile.c_str(), "a");
    if (!f)
      report(Hazard::BadProgram, Where{}, "cannot append the profile to '" + opt_.profile + "' (EXG_EMU_PROFILE)");
    exec::write_profile(run, f);
    std::fclose(f);
  }
  if (opt_.trace)
    std::fprintf(stderr, "exg-emu: %s done, %llu warp instructions\n", name.c_str(),
                 (unsigned long long)run.instructions);
  return 0;
}

} // namespace emu
