// Tests of the stand-in runtime API (emu/cudart/api_*.cpp) on a FakeDevice:
// registration as nvcc's host stubs do it, launches through each door, the
// argument checks and error codes of memory calls, symbols, events, device
// attributes and driver entry points.
#include "fake_device.h"

#include "emu/cudart/fatbin.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

// What nvcc's host stubs call (crt/host_runtime.h shows them only to nvcc).
extern "C" {
void **__cudaRegisterFatBinary(void *fat_cubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                            const char *device_name, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *block_dim, dim3 *grid_dim, int *warp_size);
void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
                       const char *device_name, int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, cudaStream_t stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                               size_t smem, cudaStream_t stream);
}

namespace emu {
Device &Device::get() { return test::fake_device(); }
namespace test {
FakeDevice &fake_device() {
  static FakeDevice device;
  return device;
}
} // namespace test
} // namespace emu

using emu::test::fake_device;

namespace {

// Host stubs and shadow variables: only their addresses matter.
char add_stub, tk_stub, unknown_stub;
float gv_shadow[4];

struct Wrapper {
  uint32_t magic, version;
  const void *data, *unused;
};

// Registers data/tiny_ptx.fatbin as the program's static constructors would.
class Runtime : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    std::ifstream in(std::string(EXGC_SOURCE_DIR) + "/test/unit/emu_cudart/data/tiny_ptx.fatbin",
                     std::ios::binary);
    std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    static std::vector<uint64_t> words((b.size() + 7) / 8);
    std::memcpy(words.data(), b.data(), b.size());
    static Wrapper wrapper{emu::cudart::kFatbinWrapperMagic, 1, words.data(), nullptr};
    fake_device().declare_kernel("_Z3addPfi");
    fake_device().declare_kernel("_Z2tkILi5EEvPi");
    fake_device().vars["gv"] = std::vector<uint8_t>(16);
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, &add_stub, const_cast<char *>("_Z3addPfi"), "_Z3addPfi", -1,
                           nullptr, nullptr, nullptr, nullptr, nullptr);
    __cudaRegisterFunction(h, &tk_stub, const_cast<char *>("_Z2tkILi5EEvPi"), "_Z2tkILi5EEvPi",
                           -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    __cudaRegisterVar(h, reinterpret_cast<char *>(gv_shadow), const_cast<char *>("gv"), "gv", 0,
                      16, 0, 0);
    __cudaRegisterFatBinaryEnd(h);
  }
  void SetUp() override {
    cudaGetLastError();
    fake_device().launches.clear();
    fake_device().arg_count = 0;
    fake_device().next_launch_error = 0;
  }
};

} // namespace

TEST_F(Runtime, TripleChevronPathReachesTheDeviceWithTheModule) {
  uint64_t a = 0x1234, n = 16;
  void *args[] = {&a, &n};
  fake_device().arg_count = 2;
  // What `add<<<dim3(2, 3), 16, 128, 0>>>(a, n)` expands to with nvcc 13.
  __cudaPushCallConfiguration(dim3(2, 3), dim3(16), 128, nullptr);
  cudaKernel_t handle = nullptr;
  ASSERT_EQ(__cudaGetKernel(&handle, &add_stub), cudaSuccess);
  dim3 grid, block;
  size_t smem = 0;
  cudaStream_t stream = reinterpret_cast<cudaStream_t>(1);
  ASSERT_EQ(__cudaPopCallConfiguration(&grid, &block, &smem, &stream), cudaSuccess);
  EXPECT_EQ(stream, nullptr);
  ASSERT_EQ(__cudaLaunchKernel(handle, grid, block, args, smem, stream), cudaSuccess);

  ASSERT_EQ(fake_device().modules.size(), 1u) << "the PTX reaches the Device once, lazily";
  EXPECT_NE(fake_device().modules[0].find(".entry _Z3addPfi"), std::string::npos);
  ASSERT_EQ(fake_device().launches.size(), 1u);
  const auto &l = fake_device().launches[0];
  EXPECT_EQ(l.kernel, "_Z3addPfi");
  EXPECT_EQ(l.config.grid.x, 2u);
  EXPECT_EQ(l.config.grid.y, 3u);
  EXPECT_EQ(l.config.block.x, 16u);
  EXPECT_EQ(l.config.dynamic_smem, 128u);
  EXPECT_FALSE(l.config.cluster_given);
  EXPECT_EQ(l.args, (std::vector<uint64_t>{0x1234, 16}));
}

TEST_F(Runtime, PopWithoutPushIsMissingConfiguration) {
  dim3 g, b;
  size_t s;
  cudaStream_t st;
  EXPECT_EQ(__cudaPopCallConfiguration(&g, &b, &s, &st), cudaErrorMissingConfiguration);
}

TEST_F(Runtime, LaunchErrorsAreLastErrorsUntilRead) {
  EXPECT_EQ(cudaLaunchKernel(&unknown_stub, dim3(1), dim3(1), nullptr, 0, nullptr),
            cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDeviceFunction) << "peek does not clear";
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  // A configuration error from the Device is the launch's result too.
  fake_device().next_launch_error = cudaErrorInvalidConfiguration;
  EXPECT_EQ(cudaLaunchKernel(&tk_stub, dim3(1), dim3(2048), nullptr, 0, nullptr),
            cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaLaunchKernel(&tk_stub, dim3(1), dim3(1), nullptr, 0,
                             reinterpret_cast<cudaStream_t>(0x999)),
            cudaErrorInvalidResourceHandle);
}

TEST_F(Runtime, LaunchKernelExPassesClusterDimensions) {
  uint64_t p = 7;
  void *args[] = {&p};
  fake_device().arg_count = 1;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(128);
  config.dynamicSmemBytes = 1024;
  config.attrs = attr;
  config.numAttrs = 1;
  ASSERT_EQ(cudaLaunchKernelExC(&config, &tk_stub, args), cudaSuccess);
  ASSERT_EQ(fake_device().launches.size(), 1u);
  const auto &l = fake_device().launches[0];
  EXPECT_TRUE(l.config.cluster_given);
  EXPECT_EQ(l.config.cluster.x, 2u);
  EXPECT_EQ(l.config.dynamic_smem, 1024u);
  EXPECT_EQ(l.args[0], 7u);

  // 16 CTAs need cudaFuncAttributeNonPortableClusterSizeAllowed; 32 never fit.
  attr[0].val.clusterDim.x = 16;
  config.gridDim = dim3(16);
  EXPECT_EQ(cudaLaunchKernelExC(&config, &tk_stub, args), cudaErrorInvalidClusterSize);
  ASSERT_EQ(cudaFuncSetAttribute(&tk_stub, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
            cudaSuccess);
  EXPECT_EQ(cudaLaunchKernelExC(&config, &tk_stub, args), cudaSuccess);
  attr[0].val.clusterDim.x = 32;
  config.gridDim = dim3(32);
  EXPECT_EQ(cudaLaunchKernelExC(&config, &tk_stub, args), cudaErrorInvalidClusterSize);
  ASSERT_EQ(cudaFuncSetAttribute(&tk_stub, cudaFuncAttributeNonPortableClusterSizeAllowed, 0),
            cudaSuccess);

  // An attribute the emulator does not model is refused, not ignored.
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  EXPECT_EQ(cudaLaunchKernelExC(&config, &tk_stub, args), cudaErrorNotSupported);
}

TEST_F(Runtime, FuncAttributes) {
  EXPECT_EQ(cudaFuncSetAttribute(&add_stub, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000),
            cudaSuccess);
  EXPECT_EQ(fake_device().max_dynamic_smem["_Z3addPfi"], 200000u);
  EXPECT_EQ(cudaFuncSetAttribute(&add_stub, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449),
            cudaErrorInvalidValue) << "past the 227 KiB opt-in";
  EXPECT_EQ(cudaFuncSetAttribute(&unknown_stub, cudaFuncAttributeMaxDynamicSharedMemorySize, 1),
            cudaErrorInvalidDeviceFunction);
  cudaFuncAttributes fa;
  ASSERT_EQ(cudaFuncGetAttributes(&fa, &add_stub), cudaSuccess);
  EXPECT_EQ(fa.maxDynamicSharedSizeBytes, 200000);
  EXPECT_EQ(fa.maxThreadsPerBlock, 1024);
  EXPECT_EQ(fa.ptxVersion, 90);
}

TEST_F(Runtime, OccupancyQueryAsksTheDevice) {
  int n = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &add_stub, 256, 0), cudaSuccess);
  EXPECT_EQ(n, 3);
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, &add_stub, 256, 0, 1),
            cudaSuccess);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, &add_stub, 256, 0, 2),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &add_stub, 0, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, &add_stub, 32, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, &unknown_stub, 32, 0),
            cudaErrorInvalidDeviceFunction);
}

TEST_F(Runtime, MemoryCallsCheckDevicePointers) {
  float *d = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&d), 64), cudaSuccess);
  float h[16] = {1, 2, 3}, back[16] = {};
  EXPECT_EQ(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[2], 3.0f);
  EXPECT_EQ(cudaMemcpy(h, back, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue)
      << "a host pointer as the device side";
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, h, 65, cudaMemcpyHostToDevice), cudaErrorInvalidValue)
      << "one byte past the allocation";
  EXPECT_EQ(cudaMemcpy(d, h, 8, static_cast<cudaMemcpyKind>(9)), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemset(d, 0, 64), cudaSuccess);
  EXPECT_EQ(cudaMemset(h, 0, 4), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemsetAsync(d, 0, 4, reinterpret_cast<cudaStream_t>(0x77)),
            cudaErrorInvalidResourceHandle);
  // 2D: 4 rows of 8 bytes with a 16-byte device pitch fit 64 bytes, 5 rows do not.
  char src[40] = {};
  EXPECT_EQ(cudaMemcpy2D(d, 16, src, 8, 8, 4, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy2D(d, 16, src, 8, 8, 5, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy2D(d, 4, src, 8, 8, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
  EXPECT_EQ(cudaFreeHost(d), cudaErrorInvalidValue) << "device memory to cudaFreeHost";
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaErrorInvalidValue) << "a double free";
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  void *pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, 32), cudaSuccess);
  EXPECT_EQ(cudaMemset(pinned, 1, 32), cudaSuccess) << "pinned memory is device-accessible";
  EXPECT_EQ(cudaFree(pinned), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

TEST_F(Runtime, SymbolsMapToDeviceVariables) {
  float h[4] = {1, 2, 3, 4}, back[4] = {};
  ASSERT_EQ(cudaMemcpyToSymbol(gv_shadow, h, sizeof h), cudaSuccess);
  float stored[4];
  std::memcpy(stored, fake_device().vars["gv"].data(), sizeof stored);
  EXPECT_EQ(stored[3], 4.0f);
  ASSERT_EQ(cudaMemcpyFromSymbol(back, gv_shadow, 8, 8), cudaSuccess);
  EXPECT_EQ(back[0], 3.0f);
  EXPECT_EQ(cudaMemcpyToSymbol(gv_shadow, h, 8, 12), cudaErrorInvalidValue) << "past its end";
  EXPECT_EQ(cudaMemcpyToSymbol(h, h, 4), cudaErrorInvalidSymbol);
  EXPECT_EQ(cudaMemcpyToSymbol(gv_shadow, h, 4, 0, cudaMemcpyDeviceToHost),
            cudaErrorInvalidMemcpyDirection);
  void *addr = nullptr;
  size_t size = 0;
  ASSERT_EQ(cudaGetSymbolAddress(&addr, gv_shadow), cudaSuccess);
  EXPECT_EQ(addr, fake_device().vars["gv"].data());
  ASSERT_EQ(cudaGetSymbolSize(&size, gv_shadow), cudaSuccess);
  EXPECT_EQ(size, 16u);
}

TEST_F(Runtime, StreamsAndEvents) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  cudaEvent_t a, b;
  ASSERT_EQ(cudaEventCreate(&a), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&b), cudaSuccess);
  float ms = -1;
  EXPECT_EQ(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle) << "not recorded";
  EXPECT_EQ(cudaEventRecord(a, s), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(b, s), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(b), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventDestroy(a), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(a), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventDestroy(b), cudaSuccess);
  EXPECT_EQ(cudaStreamCreateWithFlags(&s, 0x80), cudaErrorInvalidValue);
}

TEST_F(Runtime, DeviceIsAnH200) {
  int v = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  EXPECT_EQ(v, 132);
  ASSERT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
  EXPECT_EQ(v, 232448);
  ASSERT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  EXPECT_EQ(v, 9);
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrHostNativeAtomicSupported, 0),
            cudaErrorInvalidValue) << "an attribute not emulated is refused, not guessed";
  cudaDeviceProp p;
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_STREQ(p.name, "NVIDIA H200 (exg-emu)");
  EXPECT_EQ(p.multiProcessorCount, 132);
  EXPECT_EQ(p.major * 10 + p.minor, 90);
  EXPECT_EQ(p.sharedMemPerBlockOptin, 232448u);
  int n = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  EXPECT_EQ(n, 1);
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  ASSERT_EQ(cudaRuntimeGetVersion(&v), cudaSuccess);
  EXPECT_EQ(v, 13000);
  ASSERT_EQ(cudaDriverGetVersion(&v), cudaSuccess);
  EXPECT_EQ(v, 13000);
  ASSERT_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0), CUDA_SUCCESS);
  EXPECT_EQ(v, 132);
}

TEST_F(Runtime, DriverEntryPoints) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                             cudaEnableDefault, &q),
            cudaSuccess);
  EXPECT_EQ(q, cudaDriverEntryPointSuccess);
  EXPECT_EQ(fn, reinterpret_cast<void *>(&cuTensorMapEncodeTiled));
  ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 11080,
                                             cudaEnableDefault, &q),
            cudaSuccess);
  EXPECT_EQ(q, cudaDriverEntryPointVersionNotSufficent);
  EXPECT_EQ(fn, nullptr);
  ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuNoSuchThing", &fn, 13000, cudaEnableDefault, &q),
            cudaSuccess);
  EXPECT_EQ(q, cudaDriverEntryPointSymbolNotFound);
  EXPECT_EQ(fn, nullptr);
}

TEST(ErrorNames, RuntimeAndDriver) {
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(12345)), "unrecognized error code");
  const char *s = nullptr;
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
  EXPECT_STREQ(s, "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(cuGetErrorString(static_cast<CUresult>(12345), &s), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(s, nullptr);
}
