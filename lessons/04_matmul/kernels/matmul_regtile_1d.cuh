// Lesson 4, rung 4: 1D register tiling. C = A · B, row-major, A M×K, B K×N, C M×N.
//
// The tiled kernel gives each thread one element of C, so for every multiply-add it reads two
// floats from shared memory: shared memory, not arithmetic, sets its pace. Here each thread
// computes a column of TM = 8 elements of C. In each step along K it reads ONE value of the B tile
// into a register and uses it for all 8 of its rows: 8 multiply-adds for 9 shared-memory reads
// instead of 16.
//
// A block of 512 threads computes a 64×64 tile of C (64 · 64 / 8 = 512) and walks along K in
// chunks of 8: per chunk it stages a 64×8 tile of A and an 8×64 tile of B in shared memory, one
// element of each per thread. Thread t computes column t % 64 of the tile, rows 8 · (t / 64) to
// 8 · (t / 64) + 7. The block is 1D (512, 1, 1): launch functions refuse any other shape.
#pragma once

#include "kernels/matmul_tile_io.cuh"  // StoreToC, load_four

constexpr int kRegtile1dTileM = 64;  // rows of C per block
constexpr int kRegtile1dTileN = 64;  // columns of C per block
constexpr int kRegtile1dTileK = 8;   // K per shared-memory phase
constexpr int kRegtile1dRowsPerThread = 8;
constexpr int kRegtile1dThreads = kRegtile1dTileM * kRegtile1dTileN / kRegtile1dRowsPerThread;

template <class Store>
__device__ void matmul_regtile_1d_body(const float* a, const float* b, int m, int n, int k,
                                       Store store) {
  constexpr int BM = kRegtile1dTileM, BN = kRegtile1dTileN, BK = kRegtile1dTileK;
  constexpr int TM = kRegtile1dRowsPerThread;
  static_assert(BM * BK == kRegtile1dThreads && BK * BN == kRegtile1dThreads,
                "each thread loads exactly one element of each tile");
  __shared__ float a_tile[BM][BK];
  __shared__ float b_tile[BK][BN];

  const int t = threadIdx.x;
  const int first_row = blockIdx.y * BM;
  const int first_col = blockIdx.x * BN;
  const int my_col = t % BN;  // in the tile
  const int my_first_row = t / BN * TM;

  float sum[TM] = {};
  for (int k0 = 0; k0 < k; k0 += BK) {
    // Consecutive threads load consecutive floats of a row of A (8 of them) and of B (64): the
    // loads are coalesced. Outside the matrices they store 0.
    const int a_row = first_row + t / BK, a_col = k0 + t % BK;
    a_tile[t / BK][t % BK] = (a_row < m && a_col < k) ? a[a_row * k + a_col] : 0.0f;
    const int b_row = k0 + t / BN, b_col = first_col + t % BN;
    b_tile[t / BN][t % BN] = (b_row < k && b_col < n) ? b[b_row * n + b_col] : 0.0f;
    __syncthreads();  // the tiles are complete

    for (int i = 0; i < BK; ++i) {
      const float b_value = b_tile[i][my_col];  // one read, used TM times
      for (int r = 0; r < TM; ++r) {
        sum[r] += a_tile[my_first_row + r][i] * b_value;
      }
    }
    __syncthreads();  // everyone is done with the tiles
  }

  for (int r = 0; r < TM; ++r) {
    const int row = first_row + my_first_row + r, col = first_col + my_col;
    if (row < m && col < n) store(row, col, sum[r]);
  }
}

// `trace` records who wrote each element of C in the kernel that is drawn, and nothing at all in
// the kernel that is timed (kernels/trace.cuh).
template <class Trace>
__global__ void __launch_bounds__(kRegtile1dThreads)
    matmul_regtile_1d(const float* a, const float* b, float* c, int m, int n, int k, Trace trace) {
  matmul_regtile_1d_body(a, b, m, n, k, StoreToC<Trace>{c, n, trace});
}
