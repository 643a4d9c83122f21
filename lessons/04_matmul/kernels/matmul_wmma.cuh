// Lesson 4, tensor-core rungs 9 to 11: WMMA. C = A · B, row-major, C in float.
//
// A tensor core multiplies small matrices in one instruction issued by a whole warp. CUDA's WMMA
// API (nvcuda::wmma, <mma.h>) hides the instruction behind three calls: load_matrix_sync fills a
// fragment (a 16×16 tile of A or B spread over the warp's 32 lanes), mma_sync multiplies two
// fragments into an accumulator fragment, store_matrix_sync writes the accumulator back to memory.
// Which lane holds which element of a WMMA fragment is deliberately unspecified: code that uses
// the API must not depend on it (the mma rung, lessons/04_matmul/kernels/matmul_mma.cuh, uses the
// documented layout of the PTX instruction instead).
//
// The inputs: FP16 (__half, 11 significant bits) or BF16 (__nv_bfloat16, 8 significant bits, the
// float32 exponent range) copies of the lesson's float matrices, made once before the kernel runs;
// or the float matrices themselves for TF32, which the kernel rounds to 11 significant bits as it
// loads each fragment (__float_to_tf32). Every product of two such inputs is exact in float32, and
// the tensor core adds them into float32 accumulators.
//
// One block of 4 warps (128 threads) computes a 64×64 tile of C, each warp a 32×32 quarter as 2×2
// accumulator fragments. Per phase the block copies a 64×32 tile of A and a 32×64 tile of B into
// shared memory, element by element, writing 0 outside the matrices: WMMA loads whole 16×16 tiles
// and wants the rows of the memory it reads to start on 32-byte boundaries (ldm a multiple of 16
// bytes), which the matrices' own rows do not at awkward sizes, and the padded rows of the shared
// tiles always do. At the end each warp stores its fragments to a shared tile of C, and the block
// copies the part of it inside C to global memory: the only way to write a partial 16×16 tile.
//
// Needs <mma.h>, <cuda_fp16.h> and <cuda_bf16.h>, included by the translation unit before the
// namespace it includes this file in. Compiled for compute capability 8.0 and newer (BF16 and
// TF32 fragments arrived with Ampere); on older GPUs the launch functions refuse to run it.
#pragma once

#include "kernels/matmul_tile_io.cuh"  // StoreToC

// What each WMMA rung multiplies: the inputs' type in memory, the fragments' element type, the
// fragment's K (16 for 16-bit inputs, 8 for TF32), the padding that keeps shared rows aligned, and
// the rounding applied to a fragment after it is loaded (none for inputs that are already 16-bit).
struct WmmaFp16 {
  using Storage = __half;
  using Element = __half;
  static constexpr int K = 16;
  static constexpr int PAD = 8;  // elements: 16 bytes
  template <class Fragment>
  __device__ static void round(Fragment&) {}
};
struct WmmaBf16 {
  using Storage = __nv_bfloat16;
  using Element = __nv_bfloat16;
  static constexpr int K = 16;
  static constexpr int PAD = 8;
  template <class Fragment>
  __device__ static void round(Fragment&) {}
};
struct WmmaTf32 {
  using Storage = float;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Element = nvcuda::wmma::precision::tf32;
#else
  using Element = float;  // <mma.h> declares tf32 only from 8.0; the kernel body is empty below
#endif
  static constexpr int K = 8;
  static constexpr int PAD = 4;  // floats: 16 bytes
  // A TF32 fragment is held as floats; each must be rounded to TF32 before mma_sync, as the CUDA
  // programming guide's WMMA section requires.
  template <class Fragment>
  __device__ static void round(Fragment& fragment) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    for (int i = 0; i < fragment.num_elements; ++i) {
      fragment.x[i] = nvcuda::wmma::__float_to_tf32(fragment.x[i]);
    }
#else
    (void)fragment;
#endif
  }
};

inline constexpr int kWmmaTileM = 64, kWmmaTileN = 64, kWmmaTileK = 32, kWmmaThreads = 128;

template <class Input, class Trace>
__global__ void __launch_bounds__(kWmmaThreads)
    matmul_wmma(const typename Input::Storage* a, const typename Input::Storage* b, float* c, int m,
                int n, int k, Trace trace) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using namespace nvcuda;
  using T = typename Input::Storage;
  constexpr int BM = kWmmaTileM, BN = kWmmaTileN, BK = kWmmaTileK, PAD = Input::PAD;
  constexpr int C_LD = BN + 4;  // floats; a multiple of 4, as store_matrix_sync requires
  __shared__ __align__(32) T a_tile[BM][BK + PAD];
  __shared__ __align__(32) T b_tile[BK][BN + PAD];
  __shared__ __align__(32) float c_tile[BM][C_LD];

  const int t = threadIdx.x, warp = t / 32;
  const int warp_row = warp / 2 * 32, warp_col = warp % 2 * 32;  // this warp's 32×32 quarter
  const int first_row = blockIdx.y * BM, first_col = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, Input::K, float> sum[2][2];
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(sum[i][j], 0.0f);
  }

  for (int k0 = 0; k0 < k; k0 += BK) {
    for (int e = t; e < BM * BK; e += kWmmaThreads) {
      const int row = e / BK, kk = e % BK;
      const int global_row = first_row + row, global_k = k0 + kk;
      a_tile[row][kk] = global_row < m && global_k < k ? a[global_row * k + global_k] : T(0.0f);
    }
    for (int e = t; e < BK * BN; e += kWmmaThreads) {
      const int kk = e / BN, col = e % BN;
      const int global_k = k0 + kk, global_col = first_col + col;
      b_tile[kk][col] = global_k < k && global_col < n ? b[global_k * n + global_col] : T(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += Input::K) {
      wmma::fragment<wmma::matrix_a, 16, 16, Input::K, typename Input::Element, wmma::row_major>
          a_fragment[2];
      wmma::fragment<wmma::matrix_b, 16, 16, Input::K, typename Input::Element, wmma::row_major>
          b_fragment[2];
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(a_fragment[i], &a_tile[warp_row + 16 * i][kk], BK + PAD);
        Input::round(a_fragment[i]);
      }
      for (int j = 0; j < 2; ++j) {
        wmma::load_matrix_sync(b_fragment[j], &b_tile[kk][warp_col + 16 * j], BN + PAD);
        Input::round(b_fragment[j]);
      }
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(sum[i][j], a_fragment[i], b_fragment[j], sum[i][j]);
      }
    }
    __syncthreads();  // the tiles are overwritten by the next phase
  }

  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(&c_tile[warp_row + 16 * i][warp_col + 16 * j], sum[i][j], C_LD,
                              wmma::mem_row_major);
    }
  }
  __syncthreads();
  // Thread t copies elements t, t + 128, ... of the 64×64 tile: a warp writes 32 neighbouring
  // floats of one row of C.
  const StoreToC<Trace> store{c, n, trace};
  for (int e = t; e < BM * BN; e += kWmmaThreads) {
    const int row = first_row + e / BN, col = first_col + e % BN;
    if (row < m && col < n) store(row, col, c_tile[e / BN][e % BN]);
  }
#else
  (void)a, (void)b, (void)c, (void)m, (void)n, (void)k, (void)trace;
#endif
}
