// data.cuh - the benchmark's operands: values from a hash of the element index ------//
// Operand element i of a tensor is a pure function of (seed, i), computed bit-identically
// on the device (to fill the operands) and on the host (for the FP64 references), so the
// host never holds or copies the large operands. fp32 operands have a full 24-bit
// significand in [-1, 1), so TF32 rounding of the inputs is exercised; bf16 (f16) operands
// have a random 8-bit (11-bit) significand and magnitudes from 1/8 to 2, exact in their
// type. Zeros are rare (1 fp32 value in 2^24) or absent (bf16, f16): zeros hide unwritten
// outputs and wrong indexing.
#pragma once
#include "common.cuh"

namespace bench {

/// splitmix64's finalizer: a good 64-bit mix with integer operations only.
__host__ __device__ inline uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Element i of the tensor seeded `seed`, exactly representable in `e`.
__host__ __device__ inline float operand_value(uint64_t seed, uint64_t i, Elem e) {
  const uint64_t h = mix64(i ^ (seed << 48));
  if (e == Elem::BF16 || e == Elem::F16) {  // +-(1 + m / 2^p) / 2^s, s in 0..3, p = 7 or 10
    const int p = e == Elem::BF16 ? 7 : 10;
    const uint32_t bits = uint32_t(h >> (61 - p)), m = bits & ((1u << p) - 1);
    const float magnitude =  // divisions by powers of two: exact
        float((1u << p) + m) / float(1u << p) / float(1u << ((bits >> p) & 3));
    return bits >> (p + 2) ? -magnitude : magnitude;
  }
  return float(int32_t(h >> 40) - (1 << 23)) * 0x1p-23f;  // 24 significant bits
}

template <class T> __device__ inline T from_float(float v);
template <> __device__ inline float from_float<float>(float v) { return v; }
template <> __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);  // exact: every bf16 operand value is representable
}
template <> __device__ inline __half from_float<__half>(float v) {
  return __float2half_rn(v);  // exact: every f16 operand value is representable
}
__device__ inline double to_double(float v) { return v; }
__device__ inline double to_double(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ inline double to_double(__half v) { return __half2float(v); }

template <class T>
__global__ void fill_operand(T *p, uint64_t n, uint64_t seed, Elem e) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride)
    p[i] = from_float<T>(operand_value(seed, i, e));
}

/// out = in (or |in|) in double: the operands of the FP64 cuBLAS reference.
template <class T>
__global__ void widen(const T *in, double *out, uint64_t n, bool absolute) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const double v = to_double(in[i]);
    out[i] = absolute ? fabs(v) : v;
  }
}

/// Grid for an elementwise grid-stride kernel: enough blocks to fill every SM.
inline unsigned elementwise_blocks() {
  static unsigned blocks = [] {
    int dev = 0, sms = 0;
    BENCH_CHECK(cudaGetDevice(&dev));
    BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return unsigned(sms) * 8;
  }();
  return blocks;
}

/// Device memory that frees itself; `T` is the element type.
template <class T> struct DeviceBuffer {
  T *ptr = nullptr;
  uint64_t n = 0;
  explicit DeviceBuffer(uint64_t count) : n(count) {
    BENCH_CHECK(cudaMalloc(reinterpret_cast<void **>(&ptr), count * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

/// An operand tensor of `n` elements of `e` (fp32 storage for F32 and TF32, bf16 for BF16,
/// f16 for F16),
/// filled from `seed`, with its values widened to double when `widened` is asked for.
struct Operand {
  Elem elem;
  uint64_t n, seed;
  void *ptr = nullptr;
  Operand(Elem e, uint64_t count, uint64_t s, cudaStream_t stream) : elem(e), n(count), seed(s) {
    BENCH_CHECK(cudaMalloc(&ptr, n * elem_bytes(e)));
    if (e == Elem::BF16)
      fill_operand<<<elementwise_blocks(), 256, 0, stream>>>(static_cast<__nv_bfloat16 *>(ptr),
                                                            n, seed, e);
    else if (e == Elem::F16)
      fill_operand<<<elementwise_blocks(), 256, 0, stream>>>(static_cast<__half *>(ptr), n,
                                                            seed, e);
    else
      fill_operand<<<elementwise_blocks(), 256, 0, stream>>>(static_cast<float *>(ptr), n,
                                                            seed, e);
    BENCH_CHECK(cudaGetLastError());
  }
  ~Operand() { cudaFree(ptr); }
  Operand(const Operand &) = delete;
  Operand &operator=(const Operand &) = delete;
  void widen_into(double *out, bool absolute, cudaStream_t stream) const {
    if (elem == Elem::BF16)
      widen<<<elementwise_blocks(), 256, 0, stream>>>(static_cast<const __nv_bfloat16 *>(ptr),
                                                     out, n, absolute);
    else if (elem == Elem::F16)
      widen<<<elementwise_blocks(), 256, 0, stream>>>(static_cast<const __half *>(ptr), out, n,
                                                     absolute);
    else
      widen<<<elementwise_blocks(), 256, 0, stream>>>(static_cast<const float *>(ptr), out, n,
                                                     absolute);
    BENCH_CHECK(cudaGetLastError());
  }
  /// Row r of a row-major [rows, cols] operand, on the host, as the device holds it.
  std::vector<double> host_row(uint64_t r, uint64_t cols) const {
    std::vector<double> row(cols);
    for (uint64_t k = 0; k < cols; ++k) row[k] = operand_value(seed, r * cols + k, elem);
    return row;
  }
};

}  // namespace bench
