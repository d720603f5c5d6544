// ref_names.h - the CPU references' names in the emulated-kernel test ------//
// Each example's CUDA function and its CPU reference (`exgc --emit=cpp`) have
// the same extern "C" name. The references are compiled with this header
// forced in (-include), and emu_kernels.cpp includes it after the CUDA
// headers, so every reference is `ref_<name>` and both link into one program.
// A kernel added to bench/gpu/kernels.def without a line here fails to compile
// emu_kernels.cpp (its ref_ name is undeclared), so the list cannot fall behind.
#pragma once
#define saxpy ref_saxpy
#define vector_copy ref_vector_copy
#define gemm_naive ref_gemm_naive
#define gemm_sm80 ref_gemm_sm80
#define gemv_f32 ref_gemv_f32
#define gemv_f32x4 ref_gemv_f32x4
#define softmax ref_softmax
#define softmax_fast ref_softmax_fast
#define softmax_sm90a ref_softmax_sm90a
#define pv_sm90a ref_pv_sm90a
#define attention_sm90a ref_attention_sm90a
#define attention_d128_sm90a ref_attention_d128_sm90a
#define attention_pingpong_sm90a ref_attention_pingpong_sm90a
#define attention_d128_pingpong_sm90a ref_attention_d128_pingpong_sm90a
#define gemm_tf32_sm90a ref_gemm_tf32_sm90a
#define gemm_tf32_sm90a_cluster ref_gemm_tf32_sm90a_cluster
#define gemm_tf32_sm90a_tmastore ref_gemm_tf32_sm90a_tmastore
#define gemm_tf32_128x256 ref_gemm_tf32_128x256
#define gemm_tf32_256x128 ref_gemm_tf32_256x128
#define gemm_tf32_128x128 ref_gemm_tf32_128x128
#define gemm_bf16_128x256 ref_gemm_bf16_128x256
#define gemm_bf16_128x128 ref_gemm_bf16_128x128
#define gemm_f16_128x256 ref_gemm_f16_128x256
#define gemm_tf32_128x256_2x1 ref_gemm_tf32_128x256_2x1
#define gemm_tf32_256x128_2x1 ref_gemm_tf32_256x128_2x1
#define gemm_tf32_128x128_2x1 ref_gemm_tf32_128x128_2x1
#define gemm_bf16_128x256_2x1 ref_gemm_bf16_128x256_2x1
#define gemm_f16_128x256_2x1 ref_gemm_f16_128x256_2x1
