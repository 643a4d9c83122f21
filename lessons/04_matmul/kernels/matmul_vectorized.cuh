// Lesson 4, rung 6: vectorised loads and a transposed tile of A. C = A · B, row-major.
//
// The same 128×128 block tile and 8×8 squares per thread as the 2D register-tiled kernel, with two
// changes to how data moves:
//
// 1. float4: one instruction moves four neighbouring floats (16 bytes), from global memory into a
//    register and from shared memory into registers. Four times fewer load instructions for the
//    same bytes. It needs an address that is a multiple of 16 bytes; where a row's length is not a
//    multiple of 4, a matrix starts unaligned or a tile sticks out of the matrix, load_four falls
//    back to single floats (matmul_tile_io.cuh).
// 2. The A tile is stored transposed, a_tile[k][row]. A thread's 8 rows at one k are then 8
//    neighbouring floats, two float4 reads, where the 2D kernel needed 8 separate reads 8 floats
//    apart. The transpose happens once, when the tile is stored; it is read 128 times.
//
// Per phase each of the 256 threads loads one float4 of A (a row's 4 consecutive k) and one of B
// (4 consecutive columns). The block is 1D (256, 1, 1).
#pragma once

#include "kernels/matmul_tile_io.cuh"  // StoreToC, load_four

constexpr int kVectorizedTileM = 128;
constexpr int kVectorizedTileN = 128;
constexpr int kVectorizedTileK = 8;
constexpr int kVectorizedThreadM = 8;
constexpr int kVectorizedThreadN = 8;
constexpr int kVectorizedThreads =
    kVectorizedTileM * kVectorizedTileN / (kVectorizedThreadM * kVectorizedThreadN);

template <class Store>
__device__ void matmul_vectorized_body(const float* a, const float* b, int m, int n, int k,
                                       Store store) {
  constexpr int BM = kVectorizedTileM, BN = kVectorizedTileN, BK = kVectorizedTileK;
  constexpr int TM = kVectorizedThreadM, TN = kVectorizedThreadN;
  static_assert(BM * BK / 4 == kVectorizedThreads && BK * BN / 4 == kVectorizedThreads,
                "each thread loads one float4 of each tile");
  __shared__ __align__(16) float a_tile[BK][BM];  // transposed: a_tile[i][row]
  __shared__ __align__(16) float b_tile[BK][BN];

  const int t = threadIdx.x;
  const int first_row = blockIdx.y * BM;
  const int first_col = blockIdx.x * BN;
  const int my_row = t / (BN / TN) * TM;
  const int my_col = t % (BN / TN) * TN;
  const bool a_vector_ok = float4_rows_ok(a, k);
  const bool b_vector_ok = float4_rows_ok(b, n);
  // What this thread loads: row t / 2 of the A tile at k offset 0 or 4, and row t / 32 of the B
  // tile at column 4 · (t % 32).
  const int a_load_row = t / (BK / 4), a_load_k = t % (BK / 4) * 4;
  const int b_load_k = t / (BN / 4), b_load_col = t % (BN / 4) * 4;

  float sum[TM][TN] = {};
  float a_reg[TM];
  float b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
    const int a_row = first_row + a_load_row, a_col = k0 + a_load_k;
    const float4 av = load_four(a, m, k, a_row, a_col, a_vector_ok);
    a_tile[a_load_k + 0][a_load_row] = av.x;  // the transpose: one row of A becomes a column
    a_tile[a_load_k + 1][a_load_row] = av.y;
    a_tile[a_load_k + 2][a_load_row] = av.z;
    a_tile[a_load_k + 3][a_load_row] = av.w;
    const int b_row = k0 + b_load_k, b_col = first_col + b_load_col;
    *reinterpret_cast<float4*>(&b_tile[b_load_k][b_load_col]) =
        load_four(b, k, n, b_row, b_col, b_vector_ok);
    __syncthreads();

    for (int i = 0; i < BK; ++i) {
      for (int r = 0; r < TM; r += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&a_tile[i][my_row + r]);
        a_reg[r] = v.x, a_reg[r + 1] = v.y, a_reg[r + 2] = v.z, a_reg[r + 3] = v.w;
      }
      for (int c = 0; c < TN; c += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&b_tile[i][my_col + c]);
        b_reg[c] = v.x, b_reg[c + 1] = v.y, b_reg[c + 2] = v.z, b_reg[c + 3] = v.w;
      }
      for (int r = 0; r < TM; ++r) {
        for (int c = 0; c < TN; ++c) sum[r][c] += a_reg[r] * b_reg[c];
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
__global__ void __launch_bounds__(kVectorizedThreads)
    matmul_vectorized(const float* a, const float* b, float* c, int m, int n, int k, Trace trace) {
  matmul_vectorized_body(a, b, m, n, k, StoreToC<Trace>{c, n, trace});
}
