// emu/cudart/api_memory.cpp - allocations, copies, fills, symbols ------------//
// Owns: cudaMalloc and its host/managed siblings, cudaMemcpy*, cudaMemset*,
// cudaMemcpyTo/FromSymbol, cudaGetSymbolAddress/Size.
// Device memory is this process's memory (emu/exec/device.h), so a copy is a
// memcpy once both sides are checked: a side that must be on the device has
// to lie inside one live allocation or variable (Device::is_device_range),
// else cudaErrorInvalidValue, as the real runtime answers for a bad pointer.
// Pinned and managed memory come from the Device too: kernels may touch them.
#include "emu/cudart/runtime_state.h"

#include <cstring>

using namespace emu::cudart;

namespace {

using AllocKind = RuntimeState::AllocKind;

cudaError_t allocate(void **p, size_t bytes, AllocKind kind) {
  RuntimeState &rt = RuntimeState::get();
  if (!p)
    return rt.fail(cudaErrorInvalidValue);
  if (bytes == 0) {
    *p = nullptr;
    return cudaSuccess;
  }
  void *q = rt.device().alloc(bytes);
  if (!q)
    return rt.fail(cudaErrorMemoryAllocation);
  rt.allocations[q] = kind;
  *p = q;
  return cudaSuccess;
}

cudaError_t release(void *p, bool host) {
  RuntimeState &rt = RuntimeState::get();
  if (!p)
    return cudaSuccess;
  auto it = rt.allocations.find(p);
  // cudaFree takes device and managed memory, cudaFreeHost pinned memory.
  if (it == rt.allocations.end() || (it->second == AllocKind::Host) != host)
    return rt.fail(cudaErrorInvalidValue);
  rt.device().free(p);
  rt.allocations.erase(it);
  return cudaSuccess;
}

bool on_device(const void *p, size_t bytes) {
  return RuntimeState::get().device().is_device_range(p, bytes);
}

// The bytes a strided (2D) region spans: full pitches, then one last row.
size_t span(size_t pitch, size_t width, size_t height) {
  return height == 0 ? 0 : pitch * (height - 1) + width;
}

// Checks the two sides of a copy for `kind`; cudaMemcpyDefault infers it.
cudaError_t check_copy(void *dst, size_t dst_bytes, const void *src, size_t src_bytes,
                       cudaMemcpyKind kind) {
  bool dst_dev = on_device(dst, dst_bytes), src_dev = on_device(src, src_bytes);
  switch (kind) {
  case cudaMemcpyHostToHost:
    return cudaSuccess;
  case cudaMemcpyHostToDevice:
    return dst_dev ? cudaSuccess : cudaErrorInvalidValue;
  case cudaMemcpyDeviceToHost:
    return src_dev ? cudaSuccess : cudaErrorInvalidValue;
  case cudaMemcpyDeviceToDevice:
    return dst_dev && src_dev ? cudaSuccess : cudaErrorInvalidValue;
  case cudaMemcpyDefault:
    return cudaSuccess; // unified addressing: host or device, either side
  }
  return cudaErrorInvalidMemcpyDirection;
}

cudaError_t copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
  RuntimeState &rt = RuntimeState::get();
  if (bytes == 0)
    return cudaSuccess;
  if (!dst || !src)
    return rt.fail(cudaErrorInvalidValue);
  if (cudaError_t e = check_copy(dst, bytes, src, bytes, kind))
    return rt.fail(e);
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                    size_t height, cudaMemcpyKind kind) {
  RuntimeState &rt = RuntimeState::get();
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (dpitch < width || spitch < width)
    return rt.fail(cudaErrorInvalidPitchValue);
  if (!dst || !src)
    return rt.fail(cudaErrorInvalidValue);
  if (cudaError_t e = check_copy(dst, span(dpitch, width, height), src,
                                 span(spitch, width, height), kind))
    return rt.fail(e);
  for (size_t row = 0; row < height; ++row)
    std::memmove(static_cast<char *>(dst) + row * dpitch,
                 static_cast<const char *>(src) + row * spitch, width);
  return cudaSuccess;
}

cudaError_t fill(void *p, int value, size_t bytes) {
  RuntimeState &rt = RuntimeState::get();
  if (bytes == 0)
    return cudaSuccess;
  if (!on_device(p, bytes))
    return rt.fail(cudaErrorInvalidValue);
  std::memset(p, value, bytes);
  return cudaSuccess;
}

// The device bytes of a symbol, checked for [offset, offset + bytes).
cudaError_t symbol_range(const void *symbol, size_t bytes, size_t offset, char **where) {
  RuntimeState &rt = RuntimeState::get();
  size_t size = 0;
  void *storage = rt.symbol(symbol, &size);
  if (!storage)
    return rt.fail(cudaErrorInvalidSymbol);
  if (offset > size || bytes > size - offset)
    return rt.fail(cudaErrorInvalidValue);
  *where = static_cast<char *>(storage) + offset;
  return cudaSuccess;
}

cudaError_t check_stream(cudaStream_t stream) {
  RuntimeState &rt = RuntimeState::get();
  return rt.valid_stream(stream) ? cudaSuccess : rt.fail(cudaErrorInvalidResourceHandle);
}

} // namespace

extern "C" {

cudaError_t cudaMalloc(void **p, size_t bytes) {
  auto guard = runtime_lock();
  return allocate(p, bytes, AllocKind::Device);
}

cudaError_t cudaMallocHost(void **p, size_t bytes) {
  auto guard = runtime_lock();
  return allocate(p, bytes, AllocKind::Host);
}

cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned int flags) {
  auto guard = runtime_lock();
  return allocate(p, bytes, AllocKind::Host);
}

cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned int flags) {
  auto guard = runtime_lock();
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  return allocate(p, bytes, AllocKind::Managed);
}

cudaError_t cudaFree(void *p) {
  auto guard = runtime_lock();
  return release(p, false);
}

cudaError_t cudaFreeHost(void *p) {
  auto guard = runtime_lock();
  return release(p, true);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
  auto guard = runtime_lock();
  return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  auto guard = runtime_lock();
  if (cudaError_t e = check_stream(stream))
    return e;
  return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
  auto guard = runtime_lock();
  return copy_2d(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  auto guard = runtime_lock();
  if (cudaError_t e = check_stream(stream))
    return e;
  return copy_2d(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemset(void *p, int value, size_t bytes) {
  auto guard = runtime_lock();
  return fill(p, value, bytes);
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream) {
  auto guard = runtime_lock();
  if (cudaError_t e = check_stream(stream))
    return e;
  return fill(p, value, bytes);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset,
                               cudaMemcpyKind kind) {
  auto guard = runtime_lock();
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return RuntimeState::get().fail(cudaErrorInvalidMemcpyDirection);
  char *where = nullptr;
  if (cudaError_t e = symbol_range(symbol, bytes, offset, &where))
    return e;
  return copy(where, src, bytes, kind);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t bytes, size_t offset,
                                 cudaMemcpyKind kind) {
  auto guard = runtime_lock();
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return RuntimeState::get().fail(cudaErrorInvalidMemcpyDirection);
  char *where = nullptr;
  if (cudaError_t e = symbol_range(symbol, bytes, offset, &where))
    return e;
  return copy(dst, where, bytes, kind);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t bytes,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  auto guard = runtime_lock();
  if (cudaError_t e = check_stream(stream))
    return e;
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t bytes, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
  auto guard = runtime_lock();
  if (cudaError_t e = check_stream(stream))
    return e;
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **p, const void *symbol) {
  auto guard = runtime_lock();
  if (!p)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  char *where = nullptr;
  if (cudaError_t e = symbol_range(symbol, 0, 0, &where))
    return e;
  *p = where;
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *bytes, const void *symbol) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!bytes)
    return rt.fail(cudaErrorInvalidValue);
  if (!rt.symbol(symbol, bytes))
    return rt.fail(cudaErrorInvalidSymbol);
  return cudaSuccess;
}

} // extern "C"
