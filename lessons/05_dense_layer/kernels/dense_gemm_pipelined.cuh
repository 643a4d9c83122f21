// Lesson 5's product for large batches: Z = X · Wᵀ, and what the Store does with each element of Z
// (write it, or finish the layer with bias and sigmoid). X is batch × in, W is out × in: both keep
// a row's inputs side by side in memory ("K-major").
//
// The block computes a 128×128 tile of Z with 256 threads: 2 × 4 warps, each a 64×32 piece, whose
// 32 lanes stand 8 × 4 and own 8 rows × 8 columns each, as two runs of 4 neighbouring rows (32
// apart) and two runs of 4 neighbouring columns (16 apart). For each k a thread reads its 8 rows'
// values and its 8 columns' values as four float4s and makes 64 multiply-adds of them.
//
// Why the tiles are transposed into shared memory ([k][row], not [row][k] as they lie in memory):
// register banks. A multiply-add reads three registers; two of them in the same bank of the
// register file cost an extra cycle, unless the operand-reuse cache supplies one (it keeps what
// the previous instruction read in the same operand slot). Read as float4s along k, as a K-major
// tile invites, a row's value at k and a column's value at the same k both land in registers
// numbered 4n + (k mod 4): every multiply-add then pairs two registers of one bank, and no
// ordering helps. Read across rows at one k, row i's value sits in a register of bank i mod 4 and
// column j's in bank j mod 4, and the compiler can place the 64 sums clear of both. The order of
// the multiply-adds matters too: a thread sweeps its 8 × 8 sums row by row, every other row
// backwards (a zigzag), so each multiply-add shares one operand with the one before and that
// operand comes from the reuse cache. On the H100 at 4096³, with cuBLAS SGEMM plus a bias +
// sigmoid kernel at 2.84 ms: the K-major version 3.41 ms, transposed 3.31 ms, transposed and in
// zigzag order 3.13 ms (tools/dense_tune, docs/PERFORMANCE.md).
//
// The transposition happens in the copy, 4 bytes at a time: a warp copies 4 rows × 8 values of k
// per instruction (4 pieces of 32 contiguous bytes of global memory, whole sectors when `in` is a
// multiple of 8) to [k][row] with a row stride of 132 floats, so the 32 lanes' stores land in 32
// distinct banks of shared memory. From Ampere on the
// copy is cp.async: global to shared memory without passing through registers, the thread not
// waiting for it, so tile t + 1 travels while tile t is multiplied.
//
// A warning for whoever edits the k loop: its speed rests on how ptxas places 64 sums and 16
// fragment values in registers and orders the multiply-adds, which changes with details that change
// no instruction count. Time any change with tools/dense_tune and compare with its kt_ candidates.
//
// The pipeline has two stages (two copies of the 16 × 128 tiles of X and W, 33 KiB). Iteration t
// waits for its own copies of tile t, takes one barrier (after which everyone's copies of tile t
// are in, and everyone has finished reading tile t - 1), starts the copies of tile t + 1 into the
// stage tile t - 1 used, and multiplies tile t while they travel.
//
// The same source runs on the GPU (nvcc) and on ThreadLab's CPU emulator (the host compiler), where
// the asynchronous copy is a plain copy and the waits have nothing to wait for.

#include "kernels/cp_async.cuh"  // cp_async_4, cp_async_4_at, commit, wait
#pragma once

struct DenseGemmShape {
  static constexpr int BM = 128, BN = 128;  // the block's tile of Z: batch rows × neurons
  static constexpr int BK = 16;             // values of k per pipeline stage
  static constexpr int STAGES = 2;
  static constexpr int WARPS_M = 2, WARPS_N = 4, LANES_M = 8, LANES_N = 4;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // a warp's piece
  static constexpr int TM = WM / LANES_M, TN = WN / LANES_N;  // a lane's rows and columns
  static constexpr int LD = 128 + 4;                          // floats per k of a tile
  static constexpr int TILE_FLOATS = BK * LD;
  static constexpr int STAGE_FLOATS = 2 * TILE_FLOATS;  // X's tile, then W's
  static constexpr int SHARED_FLOATS = STAGES * STAGE_FLOATS;
  static constexpr int SHARED_BYTES = SHARED_FLOATS * 4;  // 33 792

  static_assert(THREADS == 256 && TM == 8 && TN == 8 && BM == BN);
  static_assert(LD % 32 == 4, "a warp's copy of 4 rows × 8 k lands in 32 distinct banks");
  static_assert(BK % 8 == 0, "copies go in groups of 8 values of k");
  static_assert(SHARED_BYTES <= 48 * 1024,
                "above 48 KiB the launch must opt in (cudaFuncSetAttribute) and Turing has 64 KiB");
};

// The shared memory a launch gives the kernel (dynamic: the set's launch description,
// dense_layer_launch.inl, sizes it).
__host__ __device__ constexpr int dense_gemm_shared_bytes() {
  return DenseGemmShape::SHARED_BYTES;
}

// Whether every tile lies wholly inside X and W, so the copies need no bounds checks. The launch
// functions pick the kernel's kWholeTiles from it.
__host__ __device__ constexpr bool dense_gemm_whole_tiles(int batch, int in, int out) {
  return batch % DenseGemmShape::BM == 0 && out % DenseGemmShape::BN == 0 &&
         in % DenseGemmShape::BK == 0;
}

// What differs between nvcc and the host compiler, all in one place (the copies themselves,
// cp.async or a plain copy on Turing and the emulator, are kernels/cp_async.cuh, shared with lesson
// 4's pipelined rung).
//
// Shared memory is dynamic, sized at launch. The host compiler has no launch-time size, so the
// emulator declares the shape's amount statically.
//
// Unrolling (nvcc only): everything in the k loop is unrolled, so the sums and fragments are
// registers and every shared-memory address is a register plus a constant.
#if defined(__CUDACC__)
#define TL_DENSE_GEMM_TILES(name) extern __shared__ __align__(16) float name[]
#define TL_DENSE_GEMM_UNROLL _Pragma("unroll")
#else
// One block's stages (the emulator's __shared__ is per worker thread, and a block's threads all
// run on one worker).
inline float* dense_gemm_emulated_tiles() {
  __shared__ __align__(16) float tiles[DenseGemmShape::SHARED_FLOATS];
  return tiles;
}
#define TL_DENSE_GEMM_TILES(name) float* const name = dense_gemm_emulated_tiles()
#define TL_DENSE_GEMM_UNROLL
#endif

// One matrix's share of a stage, 128 rows × BK values of k, copied into shared memory [k][row].
// Warp w copies rows 16w .. 16w + 15 as 4 groups of 4; lane l takes row l / 8 of each group and
// k = l % 8 of each group of 8 values of k. What stays in registers through the k loop is kept
// small: a base pointer, an offset, a step, a bit mask, two small offsets. The lane's place in the
// matrix is an offset, not a pointer: for rows past the end a pointer would point outside the
// array, which C++ does not allow even unread.
struct DenseTileCopy {
  using S = DenseGemmShape;
  static constexpr int ROW_GROUPS = S::BM / 4 / (S::THREADS / 32);  // 4
  static constexpr int K_GROUPS = S::BK / 8;                        // 2
  const float* base;                                                // the matrix
  size_t from;       // this lane's row of group 0, at its k of the first tile, in floats
  int row_step;      // 4 rows, in floats
  unsigned rows_ok;  // bit g: group g's row is inside the matrix
  int k_off;         // this lane's k inside a group of 8
  int to;            // this lane's first float inside a tile

  __device__ DenseTileCopy(const float* base_, int rows, int k, int first_row) {
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int row0 = first_row + warp * ROW_GROUPS * 4 + lane / 8;
    base = base_;
    k_off = lane % 8;
    from = static_cast<size_t>(row0) * k + k_off;
    row_step = 4 * k;
    rows_ok = 0;
    TL_DENSE_GEMM_UNROLL
    for (int g = 0; g < ROW_GROUPS; ++g) rows_ok |= (row0 + 4 * g < rows ? 1u : 0u) << g;
    to = k_off * S::LD + warp * ROW_GROUPS * 4 + lane / 8;
  }

  // Tiles wholly inside the matrix: no checks, and every copy is a register plus constants on
  // both sides.
  __device__ __forceinline__ void whole(CpAsyncSharedAddress tile, int k0) const {
    row_groups<0>(tile + to, base + (from + k0));
  }

  // Tiles across an edge of the matrix: what lies outside becomes zeros.
  __device__ __forceinline__ void edge(CpAsyncSharedAddress tile, int k0, int k) const {
    TL_DENSE_GEMM_UNROLL
    for (int q = 0; q < K_GROUPS; ++q) {
      const bool k_inside = k0 + q * 8 + k_off < k;
      TL_DENSE_GEMM_UNROLL
      for (int g = 0; g < ROW_GROUPS; ++g) {
        const bool inside = k_inside && (rows_ok >> g & 1u);
        // A copy outside reads nothing, but gets the matrix's own (valid) address all the same.
        cp_async_4(tile + (to + q * 8 * S::LD + g * 4),
                   inside ? base + (from + (g * row_step + k0 + q * 8)) : base, inside);
      }
    }
  }

 private:
  // The copies of whole(), each with its offsets as compile-time constants: row group G, then
  // group Q of 8 values of k.
  template <int G>
  __device__ __forceinline__ void row_groups(CpAsyncSharedAddress tile, const float* row) const {
    if constexpr (G < ROW_GROUPS) {
      k_groups<G, 0>(tile, row + G * row_step);
      row_groups<G + 1>(tile, row);
    }
  }
  template <int G, int Q>
  __device__ __forceinline__ void k_groups(CpAsyncSharedAddress tile, const float* row) const {
    if constexpr (Q < K_GROUPS) {
      cp_async_4_at<Q * 8 * S::LD + G * 4, Q * 8>(tile, row);
      k_groups<G, Q + 1>(tile, row);
    }
  }
};

template <bool kWholeTiles, class Store>
__device__ void dense_gemm_pipelined(const float* X, const float* W, int batch, int in, int out,
                                     Store store) {
  using S = DenseGemmShape;
  constexpr int BK = S::BK, LD = S::LD, STAGES = S::STAGES, TM = S::TM, TN = S::TN;
  TL_DENSE_GEMM_TILES(tiles);

  const int first_row = static_cast<int>(blockIdx.y) * S::BM;
  const int first_col = static_cast<int>(blockIdx.x) * S::BN;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  // This lane's rows and columns inside the tile: runs of 4, LANES_M · 4 (LANES_N · 4) apart.
  const int my_row = warp / S::WARPS_N * S::WM + lane / S::LANES_N * 4;
  const int my_col = warp % S::WARPS_N * S::WN + lane % S::LANES_N * 4;
  auto row_of = [&](int i) { return my_row + i % 4 + i / 4 * (S::LANES_M * 4); };
  auto col_of = [&](int j) { return my_col + j % 4 + j / 4 * (S::LANES_N * 4); };
  const int k_tiles = (in + BK - 1) / BK;

  const DenseTileCopy copy_x(X, batch, in, first_row);
  const DenseTileCopy copy_w(W, out, in, first_col);
  const CpAsyncSharedAddress shared = cp_async_shared_address(tiles);
  auto start_copies = [&](int stage, int k0) {
    const CpAsyncSharedAddress x_tile = shared + stage * S::STAGE_FLOATS;
    const CpAsyncSharedAddress w_tile = x_tile + S::TILE_FLOATS;
    if constexpr (kWholeTiles) {
      copy_x.whole(x_tile, k0);
      copy_w.whole(w_tile, k0);
    } else {
      copy_x.edge(x_tile, k0, in);
      copy_w.edge(w_tile, k0, in);
    }
  };

  float sum[TM][TN] = {};

  // Prologue: tile 0 on its way. Each iteration commits one group of copies, even an empty one,
  // so "tile t has landed" is always "at most STAGES - 2 groups still pending".
  TL_DENSE_GEMM_UNROLL
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) start_copies(s, s * BK);
    cp_async_commit();
  }

  for (int t = 0; t < k_tiles; ++t) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of tile t are in ...
    __syncthreads();              // ... and everyone's; tile t - 1's stage is free again
    const int next = t + STAGES - 1;
    if (next < k_tiles) start_copies(next % STAGES, next * BK);
    cp_async_commit();

    const float* a = tiles + t % STAGES * S::STAGE_FLOATS + my_row;
    const float* b = tiles + t % STAGES * S::STAGE_FLOATS + S::TILE_FLOATS + my_col;
    TL_DENSE_GEMM_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      float av[TM], bv[TN];
      TL_DENSE_GEMM_UNROLL
      for (int q = 0; q < TM / 4; ++q) {
        const float4 v = *reinterpret_cast<const float4*>(a + kk * LD + q * S::LANES_M * 4);
        av[4 * q] = v.x, av[4 * q + 1] = v.y, av[4 * q + 2] = v.z, av[4 * q + 3] = v.w;
      }
      TL_DENSE_GEMM_UNROLL
      for (int q = 0; q < TN / 4; ++q) {
        const float4 v = *reinterpret_cast<const float4*>(b + kk * LD + q * S::LANES_N * 4);
        bv[4 * q] = v.x, bv[4 * q + 1] = v.y, bv[4 * q + 2] = v.z, bv[4 * q + 3] = v.w;
      }
      // The zigzag: row i's 8 multiply-adds share av[i]; the turn to row i + 1 keeps the column.
      TL_DENSE_GEMM_UNROLL
      for (int i = 0; i < TM; ++i) {
        TL_DENSE_GEMM_UNROLL
        for (int jj = 0; jj < TN; ++jj) {
          const int j = i % 2 == 0 ? jj : TN - 1 - jj;
          sum[i][j] = fmaf(av[i], bv[j], sum[i][j]);
        }
      }
    }
  }

  TL_DENSE_GEMM_UNROLL
  for (int i = 0; i < TM; ++i) {
    const int row = first_row + row_of(i);
    if (row >= batch) continue;
    TL_DENSE_GEMM_UNROLL
    for (int j = 0; j < TN; ++j) {
      const int col = first_col + col_of(j);
      if (col < out) store(row, col, sum[i][j]);
    }
  }
}
