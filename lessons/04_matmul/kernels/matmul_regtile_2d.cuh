// Lesson 4, rung 5: 2D register tiling. C = A · B, row-major, A M×K, B K×N, C M×N.
//
// Each thread now computes an 8×8 square of C: 64 sums in registers. In each step along K it reads
// 8 values of the A tile (its 8 rows) and 8 of the B tile (its 8 columns) into registers and
// multiplies every pair: 64 multiply-adds for 16 shared-memory reads, where the 1D kernel needed 72
// reads and the tiled kernel 128 for as many. Registers are the fastest memory there is; the more
// work a value loaded into one does, the closer the kernel gets to the arithmetic units' pace.
//
// A block of 256 threads computes a 128×128 tile of C (256 threads × 64 elements) and stages a
// 128×8 tile of A and an 8×128 tile of B per phase, four elements of each per thread. Thread t owns
// rows 8 · (t / 16) to +7 and columns 8 · (t % 16) to +7 of the tile. The block is 1D (256, 1, 1).
#pragma once

#include "kernels/matmul_tile_io.cuh"  // StoreToC, load_four

constexpr int kRegtile2dTileM = 128;
constexpr int kRegtile2dTileN = 128;
constexpr int kRegtile2dTileK = 8;
constexpr int kRegtile2dThreadM = 8;  // rows of C per thread
constexpr int kRegtile2dThreadN = 8;  // columns of C per thread
constexpr int kRegtile2dThreads =
    kRegtile2dTileM * kRegtile2dTileN / (kRegtile2dThreadM * kRegtile2dThreadN);

template <class Store>
__device__ void matmul_regtile_2d_body(const float* a, const float* b, int m, int n, int k,
                                       Store store) {
  constexpr int BM = kRegtile2dTileM, BN = kRegtile2dTileN, BK = kRegtile2dTileK;
  constexpr int TM = kRegtile2dThreadM, TN = kRegtile2dThreadN, THREADS = kRegtile2dThreads;
  __shared__ float a_tile[BM][BK];
  __shared__ float b_tile[BK][BN];

  const int t = threadIdx.x;
  const int first_row = blockIdx.y * BM;
  const int first_col = blockIdx.x * BN;
  const int my_row = t / (BN / TN) * TM;  // first row and column of my 8×8 square, in the tile
  const int my_col = t % (BN / TN) * TN;

  float sum[TM][TN] = {};
  float a_reg[TM];
  float b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
    // 1024 elements per tile, 256 threads: each thread loads four of each, consecutive threads
    // consecutive floats.
    for (int e = t; e < BM * BK; e += THREADS) {
      const int row = first_row + e / BK, col = k0 + e % BK;
      a_tile[e / BK][e % BK] = (row < m && col < k) ? a[row * k + col] : 0.0f;
    }
    for (int e = t; e < BK * BN; e += THREADS) {
      const int row = k0 + e / BN, col = first_col + e % BN;
      b_tile[e / BN][e % BN] = (row < k && col < n) ? b[row * n + col] : 0.0f;
    }
    __syncthreads();

    for (int i = 0; i < BK; ++i) {
      for (int r = 0; r < TM; ++r) a_reg[r] = a_tile[my_row + r][i];
      for (int c = 0; c < TN; ++c) b_reg[c] = b_tile[i][my_col + c];
      for (int r = 0; r < TM; ++r) {
        for (int c = 0; c < TN; ++c) sum[r][c] += a_reg[r] * b_reg[c];  // the outer product
      }
    }
    __syncthreads();
  }

  for (int r = 0; r < TM; ++r) {
    for (int c = 0; c < TN; ++c) {
      const int row = first_row + my_row + r, col = first_col + my_col + c;
      if (row < m && col < n) store(row, col, sum[r][c]);
    }
  }
}

// `trace` records who wrote each element of C in the kernel that is drawn, and nothing at all in
// the kernel that is timed (kernels/trace.cuh).
template <class Trace>
__global__ void __launch_bounds__(kRegtile2dThreads)
    matmul_regtile_2d(const float* a, const float* b, float* c, int m, int n, int k, Trace trace) {
  matmul_regtile_2d_body(a, b, m, n, k, StoreToC<Trace>{c, n, trace});
}

// A compile experiment, never launched (lesson 4, "A promise that makes the kernel spill"): the
// same body under the two-number __launch_bounds__, which promises that 4 blocks of 256 threads
// fit on one SM at once. 65,536 registers an SM / (4 × 256 threads) leaves ptxas 64 registers a
// thread for 64 running sums and the 16 values each step multiplies, so it keeps the rest in
// local memory: the STL/LDL instructions the Compiled tab marks as spills. matmul_gpu.cu compiles
// it (explicit instantiation) so that its listing sits beside the real rung's.
template <class Trace>
__global__ void __launch_bounds__(kRegtile2dThreads, 4)
    matmul_regtile_2d_four_blocks(const float* a, const float* b, float* c, int m, int n, int k,
                                  Trace trace) {
  matmul_regtile_2d_body(a, b, m, n, k, StoreToC<Trace>{c, n, trace});
}
