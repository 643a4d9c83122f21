// Lesson 4, rung 7: warp tiling, with double-buffered shared memory. C = A · B, row-major.
//
// The vectorised kernel's threads each own an 8×8 square of C, side by side in 16 columns of
// threads. Here the block's tile is split once more, between its warps: each warp owns a 64×32
// piece of the 128×128 tile (2 × 4 warps), and inside it each of the 32 lanes owns 8 rows and 8
// columns, as two 4×4 squares 32 rows apart and two 16 columns apart. Why that shape:
//
// - The 32 lanes of a warp execute each instruction together. When a warp reads its 8 rows' worth
//   of the A tile for one k, the 8 different float4 addresses it needs are 32 consecutive floats,
//   and the B tile's 4 are 16 consecutive floats: one shared-memory transaction each, no bank
//   conflicts, and lanes that need the same value get it broadcast.
// - A warp's piece of C is what one SM sub-partition works on; keeping its data close together is
//   what the hardware's caches and register files are laid out for.
//
// Double buffering: there are two copies of each shared tile. While the warps multiply the tiles
// of phase p out of one copy, each thread's loads of phase p + 1 are already travelling from global
// memory into registers, and they are stored into the other copy afterwards. Memory latency hides
// behind arithmetic, and one __syncthreads() per phase suffices instead of two.
//
// The shared tiles get 4 floats of padding per row: the transposed stores (a row of A becomes a
// column of the tile) then land in different banks. The block is 1D (256, 1, 1).
//
// The body is a template on its tile shape and on where results go (StoreToC, traced or not).
#pragma once

#include "kernels/matmul_tile_io.cuh"  // StoreToC, load_four

template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int LANES_M_>
struct WarptileShape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_;  // the block's tile of C, and K per phase
  static constexpr int WARPS_M = WARPS_M_, WARPS_N = WARPS_N_;       // warps over rows, columns
  static constexpr int LANES_M = LANES_M_, LANES_N = 32 / LANES_M_;  // lanes over a warp's piece
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // one warp's piece of C
  static constexpr int TM = WM / LANES_M, TN = WN / LANES_N;  // one lane's rows and columns
  static constexpr int PAD = 4;                               // floats, see above
  static_assert(TM % 4 == 0 && TN % 4 == 0, "a lane's rows and columns come in float4 groups");
  static_assert((BM * BK / 4) % THREADS == 0 && (BN * BK / 4) % THREADS == 0,
                "every thread loads the same number of float4s of each tile");
};

// The lesson's warp-tiled kernel: 128×128 tiles, K in steps of 16, 2 × 4 warps of 8 × 4 lanes.
// K = 16 per phase halves the barriers of K = 8; on the H100 it measured 38.7 against 38.1 TFLOP/s
// (tools/matmul_tune, docs/PERFORMANCE.md).
using MatmulWarptile = WarptileShape<128, 128, 16, 2, 4, 8>;

template <class Shape, class Store>
__device__ void matmul_warptile_body(const float* a, const float* b, int m, int n, int k,
                                     Store store) {
  constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, PAD = Shape::PAD;
  constexpr int TM = Shape::TM, TN = Shape::TN, THREADS = Shape::THREADS;
  constexpr int A_LOADS = BM * BK / 4 / THREADS;  // float4s per thread and phase
  constexpr int B_LOADS = BN * BK / 4 / THREADS;
  __shared__ __align__(16) float a_tiles[2][BK][BM + PAD];  // transposed: [k][row]
  __shared__ __align__(16) float b_tiles[2][BK][BN + PAD];  // [k][column]

  const int t = threadIdx.x;
  const int warp = t / 32, lane = t % 32;
  const int first_row = blockIdx.y * BM;
  const int first_col = blockIdx.x * BN;
  // This lane's first row and column in the block's tile; its others are 4·LANES apart.
  const int my_row = warp / Shape::WARPS_N * Shape::WM + lane / Shape::LANES_N * 4;
  const int my_col = warp % Shape::WARPS_N * Shape::WN + lane % Shape::LANES_N * 4;
  const bool a_vector_ok = float4_rows_ok(a, k);
  const bool b_vector_ok = float4_rows_ok(b, n);

  float4 a_next[A_LOADS];  // the next phase's loads, in flight while this phase computes
  float4 b_next[B_LOADS];
  // Float4 number e of a tile: for A, row e / (BK / 4) of the tile at k offset 4 · (e % (BK / 4));
  // for B, k row e / (BN / 4) at column 4 · (e % (BN / 4)).
  auto load_from_global = [&](int k0) {
    for (int l = 0; l < A_LOADS; ++l) {
      const int e = t + l * THREADS;
      a_next[l] = load_four(a, m, k, first_row + e / (BK / 4), k0 + e % (BK / 4) * 4, a_vector_ok);
    }
    for (int l = 0; l < B_LOADS; ++l) {
      const int e = t + l * THREADS;
      b_next[l] = load_four(b, k, n, k0 + e / (BN / 4), first_col + e % (BN / 4) * 4, b_vector_ok);
    }
  };
  auto store_to_shared = [&](int buffer) {
    for (int l = 0; l < A_LOADS; ++l) {
      const int e = t + l * THREADS;
      const int row = e / (BK / 4), kk = e % (BK / 4) * 4;
      a_tiles[buffer][kk + 0][row] = a_next[l].x;
      a_tiles[buffer][kk + 1][row] = a_next[l].y;
      a_tiles[buffer][kk + 2][row] = a_next[l].z;
      a_tiles[buffer][kk + 3][row] = a_next[l].w;
    }
    for (int l = 0; l < B_LOADS; ++l) {
      const int e = t + l * THREADS;
      *reinterpret_cast<float4*>(&b_tiles[buffer][e / (BN / 4)][e % (BN / 4) * 4]) = b_next[l];
    }
  };

  float sum[TM][TN] = {};
  float a_reg[TM];
  float b_reg[TN];
  const int phases = (k + BK - 1) / BK;
  load_from_global(0);
  store_to_shared(0);
  __syncthreads();
  for (int phase = 0; phase < phases; ++phase) {
    const int buffer = phase % 2;
    const bool more = phase + 1 < phases;
    if (more) load_from_global((phase + 1) * BK);  // issued now, needed only after the arithmetic

    for (int i = 0; i < BK; ++i) {
      for (int r = 0; r < TM; r += 4) {
        const float4 v =
            *reinterpret_cast<const float4*>(&a_tiles[buffer][i][my_row + r * Shape::LANES_M]);
        a_reg[r] = v.x, a_reg[r + 1] = v.y, a_reg[r + 2] = v.z, a_reg[r + 3] = v.w;
      }
      for (int c = 0; c < TN; c += 4) {
        const float4 v =
            *reinterpret_cast<const float4*>(&b_tiles[buffer][i][my_col + c * Shape::LANES_N]);
        b_reg[c] = v.x, b_reg[c + 1] = v.y, b_reg[c + 2] = v.z, b_reg[c + 3] = v.w;
      }
      for (int r = 0; r < TM; ++r) {
        for (int c = 0; c < TN; ++c) sum[r][c] += a_reg[r] * b_reg[c];
      }
    }

    // The other buffer was last read in the previous phase, before its closing barrier: free.
    if (more) store_to_shared(1 - buffer);
    __syncthreads();
  }

  // Register r of a lane is row my_row + (r / 4) · 4 · LANES_M + r % 4 of the tile; likewise for
  // columns.
  for (int r = 0; r < TM; ++r) {
    const int row = first_row + my_row + r / 4 * 4 * Shape::LANES_M + r % 4;
    for (int c = 0; c < TN; ++c) {
      const int col = first_col + my_col + c / 4 * 4 * Shape::LANES_N + c % 4;
      if (row < m && col < n) store(row, col, sum[r][c]);
    }
  }
}

// `trace` records who wrote each element of C in the kernel that is drawn, and nothing at all in
// the kernel that is timed (kernels/trace.cuh).
template <class Shape, class Trace>
__global__ void __launch_bounds__(Shape::THREADS, 2)
    matmul_warptile(const float* a, const float* b, float* c, int m, int n, int k, Trace trace) {
  matmul_warptile_body<Shape>(a, b, m, n, k, StoreToC<Trace>{c, n, trace});
}
