// Lesson 4, tensor-core rung 12: mma.sync with ldmatrix, FP16 inputs, FP32 accumulation.
// C = A · B, A (m×k) and B (k×n) row-major __half, C row-major float.
//
// WMMA hides where each element sits in the warp. This rung writes the PTX instructions itself, so
// it works with the documented layout of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// (lessons/04_matmul/kernels/matmul_tensor_layout.hpp, drawn in the lesson's "Tensor fragments"
// tab): lane l holds a0..a7 of a 16×16 tile of A, b0..b3 of a 16×8 tile of B and c0..c3 of the 16×8
// tile of C at the places that layout names.
//
// - ldmatrix: one instruction in which each lane gives the address of one 16-byte row of an 8×8
//   tile of 16-bit values in shared memory, and receives, for each of the (here 4) tiles, the
//   32-bit register the mma layout wants: row lane/4, elements 2·(lane%4) and +1. With .trans it
//   receives the transposed element pair, which turns B's row-major k × n tile into the "col"
//   operand the instruction takes. Lanes 0-7 address tile 0, 8-15 tile 1, 16-23 tile 2, 24-31
//   tile 3; for A those are the 8×8 quarters (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7,
//   k 8-15), (rows 8-15, k 8-15), exactly registers a0a1, a2a3, a4a5, a6a7.
// - cp.async: a copy from global to shared memory that does not pass through registers and does
//   not stall the thread that issued it. The block keeps STAGES tiles of A and B in flight: while
//   the warps multiply tile t, the copies of tiles t + 1 .. t + STAGES - 1 travel. A copy whose
//   source lies outside the matrix copies 0 bytes and fills its 16 bytes with zeros, which add
//   nothing to any sum: the edges of awkward sizes cost no branches in the inner loop.
// - Shared rows are padded by 16 bytes: the 8 row addresses of one ldmatrix tile then fall in 8
//   different groups of 4 banks, so each ldmatrix is one conflict-free shared-memory access.
//
// A 16-byte cp.async needs 16-byte-aligned global addresses: every row of A and B must start on a
// 16-byte boundary (k and n multiples of 8, aligned base pointers). When they do not, the same
// kernel compiled with kAsyncCopies = false copies element by element through registers instead.
//
// The block is WARPS_M × WARPS_N warps, each owning a WM × WN piece of the block's BM × BN tile of
// C as MI × NI instructions' worth (16×8 each) of float accumulators in registers.
//
// Needs <cuda_fp16.h>, included by the translation unit before its namespace. Compiled for compute
// capability 8.0 and newer (m16n8k16 and cp.async arrived with Ampere).
#pragma once

#include "kernels/matmul_tile_io.cuh"  // StoreToC

template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_>
struct MmaShape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_;  // the block's tile of C, and K per stage
  static constexpr int WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, STAGES = STAGES_;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;      // one warp's piece of C
  static constexpr int MI = WM / 16, NI = WN / 8;                 // mma tiles per warp piece
  static constexpr int A_LD = BK + 8, B_LD = BN + 8;              // halves per shared row (padded)
  static constexpr int A_STAGE = BM * A_LD, B_STAGE = BK * B_LD;  // halves per stage
  static constexpr int SHARED_BYTES = STAGES * (A_STAGE + B_STAGE) * 2;
  static constexpr int A_CHUNKS = BM * BK / 8, B_CHUNKS = BK * BN / 8;  // 16-byte copies per stage
  static_assert(WM % 16 == 0 && WN % 16 == 0, "ldmatrix.x4.trans loads B two n8 tiles at a time");
  static_assert(BK % 16 == 0, "the instruction's K is 16");
  static_assert(A_CHUNKS % THREADS == 0 && B_CHUNKS % THREADS == 0,
                "every thread copies the same number of 16-byte chunks");
  static_assert(STAGES >= 2, "a pipeline needs a stage to compute and one to fill");
  static_assert((A_LD * 2) % 16 == 0 && (A_LD * 2 / 16) % 2 == 1,
                "padded A rows: 16-byte aligned, 8 consecutive rows in distinct bank groups");
  static_assert((B_LD * 2) % 16 == 0 && (B_LD * 2 / 16) % 2 == 1,
                "padded B rows: 16-byte aligned, 8 consecutive rows in distinct bank groups");
};

// The lesson's mma rung: 128×128 tiles of C, K in steps of 64 with 3 stages in flight (105 KiB of
// shared memory: two blocks per SM), 2 × 2 warps of 64×64 (4 × 8 instructions, 128 accumulators
// per lane). On H200s at 4096³ (tools/gpu/tensor_matmul.cu, 2026-11-26, docs/PERFORMANCE.md) it
// ran at 338-344 TFLOP/s, 0.485-0.495 of cuBLAS FP16, against 313-329 for K steps of 32 with 3 to
// 5 stages, 264-300 for 128×256 tiles, 234-257 for 256×128, 286-306 for 8 warps of 64×32, and
// 330-333 with blocks grouped for L2.
using MatmulMma = MmaShape<128, 128, 64, 2, 2, 3>;

// ---- The PTX instructions, one function each ----------------------------------------------------
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ unsigned mma_shared_address(const void* pointer) {
  return static_cast<unsigned>(__cvta_generic_to_shared(pointer));
}
// 16 bytes from global to shared memory; only `source_bytes` (16 or 0) are read, the rest zeroed.
__device__ __forceinline__ void mma_copy_async_16(void* shared, const void* global,
                                                  int source_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(mma_shared_address(shared)),
               "l"(global), "r"(source_bytes));
}
__device__ __forceinline__ void mma_copy_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
// Waits until at most `kPending` committed groups of this thread's copies are still travelling.
template <int kPending>
__device__ __forceinline__ void mma_copy_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}
__device__ __forceinline__ void mma_ldmatrix_x4(unsigned (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(mma_shared_address(row)));
}
__device__ __forceinline__ void mma_ldmatrix_x4_trans(unsigned (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(mma_shared_address(row)));
}
// d += a · b for one 16×16 tile of A and one 16×8 tile of B, in the layout of
// lessons/04_matmul/kernels/matmul_tensor_layout.hpp. Not volatile: it touches registers only, so
// the compiler may move it past the next step's ldmatrix (which must stay after the barrier, and is
// volatile).
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const unsigned (&a)[4],
                                             const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif

template <class Shape, bool kAsyncCopies, class Trace>
__global__ void __launch_bounds__(Shape::THREADS)
    matmul_mma(const __half* a, const __half* b, float* c, int m, int n, int k, Trace trace) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, STAGES = Shape::STAGES;
  constexpr int A_LD = Shape::A_LD, B_LD = Shape::B_LD, THREADS = Shape::THREADS;
  extern __shared__ __align__(16) unsigned char mma_shared[];
  __half* const a_stages = reinterpret_cast<__half*>(mma_shared);
  __half* const b_stages = a_stages + STAGES * Shape::A_STAGE;

  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int warp_row = warp / Shape::WARPS_N * Shape::WM;  // this warp's piece of the block tile
  const int warp_col = warp % Shape::WARPS_N * Shape::WN;
  const int first_row = blockIdx.y * BM, first_col = blockIdx.x * BN;
  const int tiles = (k + BK - 1) / BK;
  const __half zero = __float2half(0.0f);

  // Copies tile `tile` of A (BM × BK) and of B (BK × BN) into stage `stage`, 8 halves per chunk.
  auto load_tile = [&](int stage, int tile) {
    const int k0 = tile * BK;
    __half* const a_tile = a_stages + stage * Shape::A_STAGE;
    __half* const b_tile = b_stages + stage * Shape::B_STAGE;
#pragma unroll
    for (int l = 0; l < Shape::A_CHUNKS / THREADS; ++l) {
      const int e = t + l * THREADS;
      const int row = e / (BK / 8), kk = e % (BK / 8) * 8;
      const int global_row = first_row + row, global_k = k0 + kk;
      __half* const to = a_tile + row * A_LD + kk;
      if constexpr (kAsyncCopies) {
        // k is a multiple of 8 here: a chunk lies wholly inside A or wholly outside.
        const bool inside = global_row < m && global_k < k;
        mma_copy_async_16(to, inside ? a + global_row * k + global_k : a, inside ? 16 : 0);
      } else {
        for (int j = 0; j < 8; ++j) {
          to[j] = global_row < m && global_k + j < k ? a[global_row * k + global_k + j] : zero;
        }
      }
    }
#pragma unroll
    for (int l = 0; l < Shape::B_CHUNKS / THREADS; ++l) {
      const int e = t + l * THREADS;
      const int kk = e / (BN / 8), col = e % (BN / 8) * 8;
      const int global_k = k0 + kk, global_col = first_col + col;
      __half* const to = b_tile + kk * B_LD + col;
      if constexpr (kAsyncCopies) {
        const bool inside = global_k < k && global_col < n;  // n is a multiple of 8 too
        mma_copy_async_16(to, inside ? b + global_k * n + global_col : b, inside ? 16 : 0);
      } else {
        for (int j = 0; j < 8; ++j) {
          to[j] = global_k < k && global_col + j < n ? b[global_k * n + global_col + j] : zero;
        }
      }
    }
  };

  float sum[Shape::MI][Shape::NI][4] = {};

  // Fill all stages but one; a commit per stage (empty ones too) keeps the group count simple.
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) load_tile(s, s);
    mma_copy_commit();
  }
  for (int tile = 0; tile < tiles; ++tile) {
    // This thread's copies of `tile` have landed; after the barrier everyone's have, and everyone
    // has finished multiplying tile - 1, whose stage the next copies overwrite.
    mma_copy_wait<STAGES - 2>();
    __syncthreads();
    const int next = tile + STAGES - 1;
    if (next < tiles) load_tile(next % STAGES, next);
    mma_copy_commit();

    const __half* const a_tile = a_stages + (tile % STAGES) * Shape::A_STAGE;
    const __half* const b_tile = b_stages + (tile % STAGES) * Shape::B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned a_fragment[Shape::MI][4];
      unsigned b_fragment[Shape::NI][2];
      // A: lane l gives row l % 16 of the 16-row tile, at k offset 8 · (l / 16).
#pragma unroll
      for (int i = 0; i < Shape::MI; ++i) {
        mma_ldmatrix_x4(a_fragment[i],
                        a_tile + (warp_row + 16 * i + lane % 16) * A_LD + kk + lane / 16 * 8);
      }
      // B, two n8 tiles per instruction: lane l gives k row l % 16 at column offset 8 · (l / 16);
      // the four 8×8 tiles are (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15).
#pragma unroll
      for (int j = 0; j < Shape::NI; j += 2) {
        unsigned r[4];
        mma_ldmatrix_x4_trans(r,
                              b_tile + (kk + lane % 16) * B_LD + warp_col + 8 * j + lane / 16 * 8);
        b_fragment[j][0] = r[0];
        b_fragment[j][1] = r[1];
        b_fragment[j + 1][0] = r[2];
        b_fragment[j + 1][1] = r[3];
      }
      // The compiler interleaves these with the next step's ldmatrix (mma_m16n8k16 is not
      // volatile); explicit double-buffered fragments measured slower on the H200.
#pragma unroll
      for (int i = 0; i < Shape::MI; ++i) {
#pragma unroll
        for (int j = 0; j < Shape::NI; ++j) mma_m16n8k16(sum[i][j], a_fragment[i], b_fragment[j]);
      }
    }
  }
  mma_copy_wait<0>();  // only empty groups remain; nothing may be in flight when the block exits

  // c0, c1 are row lane / 4 of an instruction's 16×8 tile, columns 2 · (lane % 4) and + 1; c2, c3
  // the same columns 8 rows further down.
  // Both columns go in one 8-byte store where C's rows allow it (n even, C 8-byte aligned).
  const StoreToC<Trace> store{c, n, trace};
  const bool pairs = n % 2 == 0 && reinterpret_cast<unsigned long long>(c) % 8 == 0;
#pragma unroll
  for (int i = 0; i < Shape::MI; ++i) {
#pragma unroll
    for (int j = 0; j < Shape::NI; ++j) {
      const int col = first_col + warp_col + 8 * j + 2 * (lane % 4);
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = first_row + warp_row + 16 * i + lane / 4 + 8 * half;
        if (row >= m) continue;
        const float first = sum[i][j][2 * half], second = sum[i][j][2 * half + 1];
        if (pairs && col + 1 < n) {
          *reinterpret_cast<float2*>(&c[row * n + col]) = make_float2(first, second);
          trace.wrote(static_cast<unsigned long long>(row) * n + col);
          trace.wrote(static_cast<unsigned long long>(row) * n + col + 1);
        } else {
          if (col < n) store(row, col, first);
          if (col + 1 < n) store(row, col + 1, second);
        }
      }
    }
  }
#else
  (void)a, (void)b, (void)c, (void)m, (void)n, (void)k, (void)trace;
#endif
}

// Whether the 16-byte copies may be used: rows of A (k halves) and of B (n halves) start on
// 16-byte boundaries.
__host__ __device__ inline bool mma_async_copies_ok(const void* a, const void* b, int n, int k) {
  return k % 8 == 0 && n % 8 == 0 && reinterpret_cast<unsigned long long>(a) % 16 == 0 &&
         reinterpret_cast<unsigned long long>(b) % 16 == 0;
}

// One warp, for the layout test (tests/gpu): loads a 16×16 tile of A (value 16·row + col) and a
// 16×16 tile of B (value 16·k + n) with the rung's ldmatrix addressing and writes each lane's
// halves out (a: lane · 8 + a0..a7; b: lane · 8 + b0..b3 of columns 0-7, then of 8-15); then
// multiplies A'[r][0] = r, A'[r][1] = 1 by B'[0][n] = 8, B'[1][n] = n, so that C[r][n] = 8r + n,
// and writes c0..c3 (c: lane · 4 + i). Every value is exact in FP16 and FP32.
__global__ void matmul_mma_layout_probe(float* a_out, float* b_out, float* c_out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __shared__ __align__(16) __half a_tile[16][24];
  __shared__ __align__(16) __half b_tile[16][24];
  const int lane = threadIdx.x;
  for (int e = lane; e < 256; e += 32) {
    a_tile[e / 16][e % 16] = __float2half(static_cast<float>(e));
    b_tile[e / 16][e % 16] = __float2half(static_cast<float>(e));
  }
  __syncwarp();
  unsigned a[4], b[4];
  mma_ldmatrix_x4(a, &a_tile[lane % 16][lane / 16 * 8]);
  mma_ldmatrix_x4_trans(b, &b_tile[lane % 16][lane / 16 * 8]);
  for (int r = 0; r < 4; ++r) {
    const __half2 a_pair = *reinterpret_cast<const __half2*>(&a[r]);
    const __half2 b_pair = *reinterpret_cast<const __half2*>(&b[r]);
    a_out[lane * 8 + 2 * r] = __low2float(a_pair);
    a_out[lane * 8 + 2 * r + 1] = __high2float(a_pair);
    b_out[lane * 8 + 2 * r] = __low2float(b_pair);
    b_out[lane * 8 + 2 * r + 1] = __high2float(b_pair);
  }
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int r = e / 16, col = e % 16;
    a_tile[r][col] = __float2half(col == 0 ? static_cast<float>(r) : col == 1 ? 1.0f : 0.0f);
    b_tile[r][col] = __float2half(r == 0 ? 8.0f : r == 1 ? static_cast<float>(col) : 0.0f);
  }
  __syncwarp();
  mma_ldmatrix_x4(a, &a_tile[lane % 16][lane / 16 * 8]);
  mma_ldmatrix_x4_trans(b, &b_tile[lane % 16][lane / 16 * 8]);
  float d[4] = {};
  const unsigned first_b[2] = {b[0], b[1]};
  mma_m16n8k16(d, a, first_b);
  for (int i = 0; i < 4; ++i) c_out[lane * 4 + i] = d[i];
#else
  (void)a_out, (void)b_out, (void)c_out;
#endif
}
