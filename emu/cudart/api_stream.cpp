// emu/cudart/api_stream.cpp - streams, events and synchronization -----------//
// Owns: cudaStream*, cudaEvent*, cudaDeviceSynchronize. Every launch and copy
// has finished when its call returns (launch_kernel runs it to completion), so
// streams only need to be valid handles, synchronizing is a check, and an
// event records the host's wall clock when cudaEventRecord is called:
// cudaEventElapsedTime measures the emulation's own time, not a GPU's.
#include "emu/cudart/runtime_state.h"

using namespace emu::cudart;

namespace {

cudaError_t create_stream(cudaStream_t *s, unsigned flags, int priority) {
  RuntimeState &rt = RuntimeState::get();
  if (!s || (flags & ~unsigned(cudaStreamNonBlocking)))
    return rt.fail(cudaErrorInvalidValue);
  auto *stream = new CUstream_st{flags, priority};
  rt.streams.insert(stream);
  *s = stream;
  return cudaSuccess;
}

cudaError_t check_stream(cudaStream_t s) {
  RuntimeState &rt = RuntimeState::get();
  return rt.valid_stream(s) ? cudaSuccess : rt.fail(cudaErrorInvalidResourceHandle);
}

cudaError_t create_event(cudaEvent_t *e, unsigned flags) {
  RuntimeState &rt = RuntimeState::get();
  unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!e || (flags & ~known))
    return rt.fail(cudaErrorInvalidValue);
  auto *event = new CUevent_st;
  event->flags = flags;
  rt.events.insert(event);
  *e = event;
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t *s) {
  auto guard = runtime_lock();
  return create_stream(s, cudaStreamDefault, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) {
  auto guard = runtime_lock();
  return create_stream(s, flags, 0);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority) {
  auto guard = runtime_lock();
  return create_stream(s, flags, priority);
}

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!rt.streams.erase(s))
    return rt.fail(cudaErrorInvalidResourceHandle);
  delete s;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  auto guard = runtime_lock();
  return check_stream(s);
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
  auto guard = runtime_lock();
  return check_stream(s);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!rt.valid_event(e))
    return rt.fail(cudaErrorInvalidResourceHandle);
  return check_stream(s);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  // Hopper's range: 0 (least) to -5 (greatest).
  if (least)
    *least = 0;
  if (greatest)
    *greatest = -5;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t *e) {
  auto guard = runtime_lock();
  return create_event(e, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags) {
  auto guard = runtime_lock();
  return create_event(e, flags);
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!rt.valid_event(e))
    return rt.fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t err = check_stream(s))
    return err;
  e->recorded = true;
  e->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  return rt.valid_event(e) ? cudaSuccess : rt.fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t e) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  return rt.valid_event(e) ? cudaSuccess : rt.fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!ms)
    return rt.fail(cudaErrorInvalidValue);
  if (!rt.valid_event(start) || !rt.valid_event(end))
    return rt.fail(cudaErrorInvalidResourceHandle);
  // As CUDA: both must have been recorded and keep timing.
  if (!start->recorded || !end->recorded || (start->flags & cudaEventDisableTiming) ||
      (end->flags & cudaEventDisableTiming))
    return rt.fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!rt.events.erase(e))
    return rt.fail(cudaErrorInvalidResourceHandle);
  delete e;
  return cudaSuccess;
}

} // extern "C"
