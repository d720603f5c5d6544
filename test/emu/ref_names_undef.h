// ref_names_undef.h - ends ref_names.h: after the references' headers, each name
// is the CUDA function again (emu_kernels.cpp). A name missing here makes a
// CUDA call resolve to its reference, which the types reject at compile time.
#undef saxpy
#undef vector_copy
#undef gemm_naive
#undef gemm_sm80
#undef gemv_f32
#undef gemv_f32x4
#undef softmax
#undef softmax_fast
#undef softmax_sm90a
#undef pv_sm90a
#undef attention_sm90a
#undef attention_d128_sm90a
#undef attention_pingpong_sm90a
#undef attention_d128_pingpong_sm90a
#undef gemm_tf32_sm90a
#undef gemm_tf32_sm90a_cluster
#undef gemm_tf32_sm90a_tmastore
#undef gemm_tf32_128x256
#undef gemm_tf32_256x128
#undef gemm_tf32_128x128
#undef gemm_bf16_128x256
#undef gemm_bf16_128x128
#undef gemm_f16_128x256
#undef gemm_tf32_128x256_2x1
#undef gemm_tf32_256x128_2x1
#undef gemm_tf32_128x128_2x1
#undef gemm_bf16_128x256_2x1
#undef gemm_f16_128x256_2x1
