// emu/cudart/runtime_state.cpp - what the stand-in libcudart remembers ------//
#include "emu/cudart/runtime_state.h"

#include "emu/cudart/fatbin.h"

#include <dlfcn.h>

namespace emu::cudart {

RuntimeState &RuntimeState::get() {
  // Never destroyed: nvcc's atexit handlers unregister fatbinaries after
  // static destructors would have run.
  static RuntimeState *state = new RuntimeState;
  return *state;
}

namespace {

// The file a fatbinary came from (the program or one of its libraries), for reports.
std::string origin_of(const void *wrapper) {
  Dl_info info;
  if (dladdr(wrapper, &info) && info.dli_fname && *info.dli_fname)
    return std::string("fatbinary of ") + info.dli_fname;
  return "fatbinary";
}

} // namespace

void **RuntimeState::register_fatbin(const void *wrapper) {
  std::string error, ptx;
  std::vector<FatbinEntry> entries;
  const unsigned char *data = fatbin_of_wrapper(wrapper, error);
  if (!data || !read_fatbin(data, entries, error) || !choose_ptx(entries, ptx, error))
    report(Hazard::BadProgram, {}, error + " (" + origin_of(wrapper) + ")");
  auto m = std::make_unique<Module>();
  m->ptx = std::move(ptx);
  m->origin = origin_of(wrapper);
  // The handle nvcc's stubs pass back is the address of our record.
  void **handle = reinterpret_cast<void **>(m.get());
  modules_[handle] = std::move(m);
  return handle;
}

void RuntimeState::register_function(void **module, const void *host_fun, const char *name) {
  auto k = std::make_unique<KernelEntry>();
  k->name = name;
  kernels_[host_fun] = std::move(k);
}

void RuntimeState::register_var(void **module, const void *host_var, const char *name,
                                size_t bytes) {
  vars_[host_var] = VarEntry{name, bytes};
}

void RuntimeState::unregister_fatbin(void **module) {
  // The Device keeps its modules until the process ends; forgetting the
  // record only stops a reload after cudaDeviceReset.
  modules_.erase(module);
}

Device &RuntimeState::device() {
  Device &d = Device::get();
  for (auto &[handle, m] : modules_) {
    if (m->added)
      continue;
    m->added = true;
    d.add_module(m->ptx, m->origin);
  }
  return d;
}

KernelEntry *RuntimeState::kernel_of_stub(const void *host_fun) {
  auto it = kernels_.find(host_fun);
  return it == kernels_.end() ? nullptr : it->second.get();
}

KernelEntry *RuntimeState::kernel_of_handle(const void *handle) {
  for (auto &[stub, k] : kernels_)
    if (k.get() == handle)
      return k.get();
  return nullptr;
}

void *RuntimeState::symbol(const void *host_var, size_t *bytes) {
  auto it = vars_.find(host_var);
  if (it == vars_.end())
    return nullptr;
  size_t device_bytes = 0;
  void *p = device().variable(it->second.name, &device_bytes);
  if (bytes)
    *bytes = device_bytes;
  return p;
}

cudaError_t RuntimeState::fail(cudaError_t e) {
  if (e != cudaSuccess)
    last_error_ = e;
  return e;
}

cudaError_t RuntimeState::take_last_error() {
  cudaError_t e = last_error_;
  last_error_ = cudaSuccess;
  return e;
}

bool RuntimeState::valid_stream(cudaStream_t s) const {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || streams.count(s);
}

void RuntimeState::reset() {
  Device &d = device();
  for (auto &[p, kind] : allocations)
    d.free(p);
  allocations.clear();
  for (CUstream_st *s : streams)
    delete s;
  streams.clear();
  for (CUevent_st *e : events)
    delete e;
  events.clear();
  for (auto &[stub, k] : kernels_) {
    *k = KernelEntry{k->name};
    d.set_max_dynamic_smem(k->name, k->max_dynamic_smem);
  }
  call_configs.clear();
  last_error_ = cudaSuccess;
}

} // namespace emu::cudart
