// cuTensorMapEncodeTiled through the stand-in libcuda's entry point: the
// driver's error codes for broken rules (the rules themselves are tested with
// the encoder, test/unit/emu_sm90/).
#include <cuda.h>
#include <gtest/gtest.h>

namespace {

struct Map2d {
  alignas(64) CUtensorMap map;
  alignas(256) float data[64 * 64];
  cuuint64_t dims[2] = {64, 64};
  cuuint64_t strides[1] = {64 * sizeof(float)};
  cuuint32_t box[2] = {32, 32};
  cuuint32_t elem[2] = {1, 1};
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  void *address = data;

  CUresult encode() {
    return cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, address, dims,
                                  strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
};

} // namespace

TEST(TensorMapEntry, AcceptsAPlainTile) {
  Map2d m;
  EXPECT_EQ(m.encode(), CUDA_SUCCESS);
}

TEST(TensorMapEntry, BrokenRulesAreInvalidValue) {
  {
    Map2d m;
    m.strides[0] = 64 * sizeof(float) + 4; // strides are multiples of 16 bytes
    EXPECT_EQ(m.encode(), CUDA_ERROR_INVALID_VALUE);
  }
  {
    Map2d m;
    m.address = reinterpret_cast<char *>(m.data) + 4; // the base is 16-byte aligned
    EXPECT_EQ(m.encode(), CUDA_ERROR_INVALID_VALUE);
  }
  {
    Map2d m;
    m.box[1] = 257; // a box side is at most 256
    EXPECT_EQ(m.encode(), CUDA_ERROR_INVALID_VALUE);
  }
  {
    Map2d m;
    m.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; // the inner box (128 bytes) exceeds the 64-byte span
    EXPECT_EQ(m.encode(), CUDA_ERROR_INVALID_VALUE);
  }
}
