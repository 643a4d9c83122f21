// Lesson 4, rung 8: the warp-tiled kernel fed by an asynchronous copy pipeline. C = A · B,
// row-major.
//
// Every thread computes the same 8 × 8 elements of C as in the warptile rung (2 × 4 warps of 8 × 4
// lanes over a 128 × 128 tile; two runs of 4 rows 32 apart, two runs of 4 columns 16 apart), so
// the picture of who writes what is the same. What changes is how the tiles reach shared memory,
// and the order of the arithmetic:
//
// - cp.async (compute capability 8.0 on) copies from global to shared memory without passing
//   through registers, and the thread does not wait for it. The warptile rung loads its next tiles
//   into registers, keeping 16 of them busy through the whole k loop, and must store them to shared
//   memory itself; here the copies of tile t + STAGES - 1 are in flight while tile t is multiplied,
//   and STAGES copies of the tiles (a ring) live in shared memory. The copies commit in groups,
//   one per tile; "tile t has landed" is "at most STAGES - 2 groups still pending", then one
//   barrier makes everyone's copies visible and frees the stage tile t - 1 used.
// - A is transposed on the way in, 4 bytes per copy: shared memory holds it [k][row], so a lane
//   reads its 8 rows at one k as two float4s. A warp copies 4 rows × 8 values of k per
//   instruction; with 132 floats per k (128 + 4 of padding) its 32 stores land in 32 distinct
//   banks. B is already [k][column] in memory: 16 bytes per copy, a warp's copy one whole row of
//   the tile.
// - The multiply-adds sweep a thread's 8 × 8 sums row by row, every other row backwards (a zigzag):
//   each multiply-add shares one operand with the one before, and the register file's
//   operand-reuse cache supplies it, so two operands in the same register bank cost no extra cycle
//   (lesson 5's GEMM, lessons/05_dense_layer/kernels/dense_gemm_pipelined.cuh, explains it and
//   measured it).
// - Everything in the k loop is unrolled (nvcc), so the sums and fragments are registers and every
//   shared-memory address is a register plus a constant.
//
// The shape is a template: BK values of k per stage and STAGES stages. They change neither the
// thread→element mapping nor the result (the sums run over k in the same order), only the speed,
// so the GPU executor compiles a few of them and times them once per process on the device it runs
// on (lessons/04_matmul/kernels/matmul_gpu.cu, "autotuning"); the emulator and the traced kernel
// use the default, MatmulPipelined.
//
// The same source runs on the GPU (nvcc) and on ThreadLab's CPU emulator (the host compiler), where
// the asynchronous copy is a plain copy and the waits have nothing to wait for. So does Turing
// (7.5), which has no cp.async.
#pragma once

#include "kernels/cp_async.cuh"        // cp_async_4, cp_async_16, commit, wait
#include "kernels/matmul_tile_io.cuh"  // StoreToC

template <int BK_, int STAGES_, bool ZIGZAG_ = true>
struct PipelinedShape {
  static constexpr int BM = 128, BN = 128;  // the block's tile of C
  static constexpr int BK = BK_;            // values of k per stage
  static constexpr int STAGES = STAGES_;
  static constexpr bool ZIGZAG = ZIGZAG_;  // the multiply-adds' order (false: row by row, as
                                           // the warptile rung; kept to measure the difference)
  static constexpr int WARPS_M = 2, WARPS_N = 4, LANES_M = 8, LANES_N = 4;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // a warp's piece
  static constexpr int TM = WM / LANES_M, TN = WN / LANES_N;  // a lane's rows and columns
  static constexpr int LDA = BM + 4;                          // floats per k of A's tile, see above
  static constexpr int LDB = BN;  // B's rows are copied whole: no padding needed
  static constexpr int A_FLOATS = BK * LDA, B_FLOATS = BK * LDB;
  static constexpr int STAGE_FLOATS = A_FLOATS + B_FLOATS;
  static constexpr int SHARED_BYTES = STAGES * STAGE_FLOATS * 4;
  // Copies per thread and stage: A's 4-byte ones in groups of 4 rows × 8 k per warp, B's float4s.
  static constexpr int A_ROW_GROUPS = BM / 4 / (THREADS / 32);
  static constexpr int A_K_GROUPS = BK / 8;
  static constexpr int B_COPIES = BK * BN / 4 / THREADS;

  static_assert(THREADS == 256 && TM == 8 && TN == 8, "the warptile rung's mapping");
  static_assert(LDA % 32 == 4, "a warp's copy of 4 rows × 8 k lands in 32 distinct banks");
  static_assert(BK % 8 == 0 && B_COPIES >= 1, "copies go in groups of 8 values of k");
  static_assert(STAGES >= 2, "one stage multiplied while the next is copied");
};

// The lesson's (and the emulator's) shape: 16 values of k per stage, two stages, 33 KiB of shared
// memory — within the 48 KiB any kernel may have without opting in.
using MatmulPipelined = PipelinedShape<16, 2>;

// Whether every tile lies wholly inside A and B and B's rows allow 16-byte copies, so the copies
// need no bounds checks. The launch picks the kernel's kWholeTiles from it.
template <class Shape>
__host__ __device__ constexpr bool pipelined_whole_tiles(int m, int n, int k, const float* b) {
  return m % Shape::BM == 0 && n % Shape::BN == 0 && k % Shape::BK == 0 &&
         reinterpret_cast<unsigned long long>(b) % 16 == 0;
}

// One multiply-add: on the GPU one FFMA, rounded once. The host compiler, building for any x86-64,
// would turn fmaf into a library call that emulates the fused operation in software (ten times
// slower on the emulator, measured at 256³), so there it is a multiply and an add, as in the
// warptile rung: the sums may differ from the GPU's in the last bits, which the checks allow.
__host__ __device__ inline float pipelined_multiply_add(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return fmaf(a, b, c);
#else
  return a * b + c;
#endif
}

template <class Shape>
#if defined(__CUDA_ARCH__)
inline constexpr bool kPipelinedZigzagHere = Shape::ZIGZAG;
#else
inline constexpr bool kPipelinedZigzagHere = false;
#endif

#if defined(__CUDACC__)
#define TL_PIPELINED_TILES(name, Shape) extern __shared__ __align__(16) float name[]
#define TL_PIPELINED_UNROLL _Pragma("unroll")
#else
// One block's stages (the emulator's __shared__ is per worker thread, and a block's threads all
// run on one worker); sized for the shape, since the host compiler has no launch-time size.
template <class Shape>
float* pipelined_emulated_tiles() {
  __shared__ __align__(16) float tiles[Shape::STAGES * Shape::STAGE_FLOATS];
  return tiles;
}
#define TL_PIPELINED_TILES(name, Shape) float* const name = pipelined_emulated_tiles<Shape>()
#define TL_PIPELINED_UNROLL
#endif

template <class Shape, bool kWholeTiles, class Store>
__device__ void matmul_pipelined_body(const float* a, const float* b, int m, int n, int k,
                                      Store store) {
  constexpr int BK = Shape::BK, LDA = Shape::LDA, LDB = Shape::LDB, STAGES = Shape::STAGES;
  constexpr int TM = Shape::TM, TN = Shape::TN, THREADS = Shape::THREADS;
  TL_PIPELINED_TILES(tiles, Shape);

  const int t = static_cast<int>(threadIdx.x);
  const int warp = t / 32, lane = t % 32;
  const int first_row = static_cast<int>(blockIdx.y) * Shape::BM;
  const int first_col = static_cast<int>(blockIdx.x) * Shape::BN;
  // This lane's rows and columns inside the tile: runs of 4, LANES_M · 4 (LANES_N · 4) apart.
  const int my_row = warp / Shape::WARPS_N * Shape::WM + lane / Shape::LANES_N * 4;
  const int my_col = warp % Shape::WARPS_N * Shape::WN + lane % Shape::LANES_N * 4;

  // A's copies: warp w takes rows 16w .. 16w + 15 as 4 groups of 4 rows; lane l row l / 8 of each
  // group and k = l % 8 of each group of 8 values of k. The lane's place is kept as an offset, not
  // a pointer: past the matrix's end a pointer would point outside the array.
  const int a_row = first_row + warp * Shape::A_ROW_GROUPS * 4 + lane / 8;
  const int a_k = lane % 8;
  const size_t a_from = static_cast<size_t>(a_row) * k + a_k;
  const int a_to = a_k * LDA + warp * Shape::A_ROW_GROUPS * 4 + lane / 8;
  // B's copies: float4 number e = t + THREADS · i of the tile is k row e / (BN / 4), columns
  // 4 · (e % (BN / 4)) on; a warp copies one row.
  const int b_k = t / (Shape::BN / 4), b_col = t % (Shape::BN / 4) * 4;
  constexpr int B_K_STEP = THREADS / (Shape::BN / 4);  // k rows between a thread's copies
  const size_t b_from = static_cast<size_t>(b_k) * n + first_col + b_col;
  const int b_to = b_k * LDB + b_col;
  // Edge tiles only: whether B's rows allow 16-byte copies.
  const bool b_vector_ok =
      kWholeTiles || (n % 4 == 0 && reinterpret_cast<unsigned long long>(b) % 16 == 0);

  const CpAsyncSharedAddress shared = cp_async_shared_address(tiles);
  auto start_copies = [&](int stage, int k0) {
    const CpAsyncSharedAddress a_tile = shared + stage * Shape::STAGE_FLOATS;
    const CpAsyncSharedAddress b_tile = a_tile + Shape::A_FLOATS;
    TL_PIPELINED_UNROLL
    for (int g = 0; g < Shape::A_ROW_GROUPS; ++g) {
      TL_PIPELINED_UNROLL
      for (int q = 0; q < Shape::A_K_GROUPS; ++q) {
        const CpAsyncSharedAddress to = a_tile + (a_to + q * 8 * LDA + g * 4);
        const size_t from = a_from + static_cast<size_t>(g) * 4 * k + k0 + q * 8;
        if constexpr (kWholeTiles) {
          cp_async_4(to, a + from, true);
        } else {
          const bool inside = a_row + 4 * g < m && k0 + q * 8 + a_k < k;
          // A copy outside reads nothing, but gets the matrix's own (valid) address all the same.
          cp_async_4(to, inside ? a + from : a, inside);
        }
      }
    }
    TL_PIPELINED_UNROLL
    for (int i = 0; i < Shape::B_COPIES; ++i) {
      const CpAsyncSharedAddress to = b_tile + (b_to + i * B_K_STEP * LDB);
      const size_t from = b_from + static_cast<size_t>(k0 + i * B_K_STEP) * n;
      if constexpr (kWholeTiles) {
        cp_async_16(to, b + from, true);
      } else {
        const bool row_inside = k0 + i * B_K_STEP + b_k < k;
        const int col = first_col + b_col;
        if (b_vector_ok) {
          // n is a multiple of 4 here: a group of 4 columns is wholly inside or wholly outside.
          const bool inside = row_inside && col < n;
          cp_async_16(to, inside ? b + from : b, inside);
        } else {
          TL_PIPELINED_UNROLL
          for (int j = 0; j < 4; ++j) {
            const bool inside = row_inside && col + j < n;
            cp_async_4(to + j, inside ? b + from + j : b, inside);
          }
        }
      }
    }
  };

  float sum[TM][TN] = {};
  const int k_tiles = (k + BK - 1) / BK;

  // Prologue: tiles 0 .. STAGES - 2 on their way. Each step commits one group of copies, even an
  // empty one, so "tile t has landed" is always "at most STAGES - 2 groups still pending".
  TL_PIPELINED_UNROLL
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) start_copies(s, s * BK);
    cp_async_commit();
  }

  for (int tile = 0; tile < k_tiles; ++tile) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of the tile are in ...
    __syncthreads();              // ... and everyone's; the previous tile's stage is free again
    const int next = tile + STAGES - 1;
    if (next < k_tiles) start_copies(next % STAGES, next * BK);
    cp_async_commit();

    const float* a_tile = tiles + tile % STAGES * Shape::STAGE_FLOATS + my_row;
    const float* b_tile = tiles + tile % STAGES * Shape::STAGE_FLOATS + Shape::A_FLOATS + my_col;
    TL_PIPELINED_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      float av[TM], bv[TN];
      TL_PIPELINED_UNROLL
      for (int q = 0; q < TM / 4; ++q) {
        const float4 v =
            *reinterpret_cast<const float4*>(a_tile + kk * LDA + q * Shape::LANES_M * 4);
        av[4 * q] = v.x, av[4 * q + 1] = v.y, av[4 * q + 2] = v.z, av[4 * q + 3] = v.w;
      }
      TL_PIPELINED_UNROLL
      for (int q = 0; q < TN / 4; ++q) {
        const float4 v =
            *reinterpret_cast<const float4*>(b_tile + kk * LDB + q * Shape::LANES_N * 4);
        bv[4 * q] = v.x, bv[4 * q + 1] = v.y, bv[4 * q + 2] = v.z, bv[4 * q + 3] = v.w;
      }
      // The zigzag: row i's 8 multiply-adds share av[i]; the turn to row i + 1 keeps the column.
      // It matters for the GPU's register banks alone: the host compiler, which vectorises the
      // plain order, gets that (each sum still adds its products in the same order of k).
      TL_PIPELINED_UNROLL
      for (int i = 0; i < TM; ++i) {
        TL_PIPELINED_UNROLL
        for (int jj = 0; jj < TN; ++jj) {
          const int j = !kPipelinedZigzagHere<Shape> || i % 2 == 0 ? jj : TN - 1 - jj;
          sum[i][j] = pipelined_multiply_add(av[i], bv[j], sum[i][j]);
        }
      }
    }
  }
  cp_async_wait<0>();  // no copy may still be writing when the block's shared memory is reused

  // Register i of a lane is row my_row + (i / 4) · 4 · LANES_M + i % 4 of the tile; likewise for
  // columns.
  TL_PIPELINED_UNROLL
  for (int i = 0; i < TM; ++i) {
    const int row = first_row + my_row + i / 4 * 4 * Shape::LANES_M + i % 4;
    if (row >= m) continue;
    TL_PIPELINED_UNROLL
    for (int j = 0; j < TN; ++j) {
      const int col = first_col + my_col + j / 4 * 4 * Shape::LANES_N + j % 4;
      if (col < n) store(row, col, sum[i][j]);
    }
  }
}

// The shared memory a launch gives the kernel (dynamic: the launch sizes it).
template <class Shape>
constexpr int matmul_pipelined_shared_bytes() {
  return Shape::SHARED_BYTES;
}

// `trace` records who wrote each element of C in the kernel that is drawn, and nothing at all in
// the kernel that is timed (kernels/trace.cuh).
template <class Shape, bool kWholeTiles, class Trace>
__global__ void __launch_bounds__(Shape::THREADS, 2)
    matmul_pipelined(const float* a, const float* b, float* c, int m, int n, int k, Trace trace) {
  matmul_pipelined_body<Shape, kWholeTiles>(a, b, m, n, k, StoreToC<Trace>{c, n, trace});
}
