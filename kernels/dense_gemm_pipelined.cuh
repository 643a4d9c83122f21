// Lesson 5's product for large batches: Z = X · Wᵀ, and what the Store does with each element of Z
// (write it, or finish the layer with bias and sigmoid). X is batch × in, W is out × in: both keep
// a row's inputs side by side in memory, so each tile is copied into shared memory as it lies in
// global memory, one row after another ("K-major"), and read back as float4s along k.
//
// Why not the matrix-multiply lesson's warp-tiled kernel, which the dense layer used before? That
// kernel's tiles are [k][row] in shared memory, so these K-major inputs had to be transposed on the
// way in, through registers, four scalar stores per float4 loaded. Keeping the tiles K-major lets
// the copy skip the registers entirely: cp.async moves 16 bytes from global to shared memory
// without the issuing thread waiting for them, so tile t + 1 travels while tile t is multiplied.
// On the H100 at 4096³ this took the fused layer from 4.02 to 3.41 ms; cuBLAS SGEMM plus a bias +
// sigmoid kernel take 2.82 ms (tools/dense_tune, docs/PERFORMANCE.md).
//
// A warning for whoever edits the k loop: its speed rests on how ptxas assigns registers to the 64
// sums and 36 fragment values, and that is sensitive to details that change no instruction count.
// An earlier version of this very body (the same loop; the block's position computed in unsigned
// arithmetic, the prologue unguarded) ran at 3.77 ms: ncu showed twice the dispatch stalls, from
// register-bank conflicts between the sums and the fragments. Time any change with
// tools/dense_tune.
//
// The block computes a 128×128 tile of Z with 256 threads: 2 × 4 warps, each a 64×32 piece, whose
// 32 lanes stand 8 × 4 and own 8 rows × 8 columns each. A lane's rows are 8 apart and its columns 4
// apart (not neighbours): then in every read of the tiles the 32 lanes of a warp ask for 8 rows ×
// 16 bytes of A and 4 rows × 16 bytes of B, and with a row stride of 36 floats (an odd number of
// 16-byte groups) those rows land in different banks: no bank conflicts.
//
// The pipeline has two stages (two copies of the A and B tiles, 72 KiB in all). Iteration t waits
// for its own copies of tile t, takes one barrier (after which everyone's copies of tile t are in,
// and everyone has finished reading tile t - 1), starts the copies of tile t + 1 into the stage
// tile t - 1 used, and multiplies tile t while they travel. One barrier per 32 values of k.
//
// The same source runs on the GPU (nvcc) and on ThreadLab's CPU emulator (the host compiler), where
// the asynchronous copy is a plain copy and the waits have nothing to wait for.
#pragma once

#include "kernels/matmul_tile_io.cuh"  // load_four, float4_rows_ok

template <int BK_>
struct DenseGemmShape {
  static constexpr int BM = 128, BN = 128;  // the block's tile of Z: batch rows × neurons
  static constexpr int BK = BK_;            // values of k per pipeline stage
  static constexpr int STAGES = 2;
  static constexpr int WARPS_M = 2, WARPS_N = 4, LANES_M = 8, LANES_N = 4;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // a warp's piece
  static constexpr int TM = WM / LANES_M, TN = WN / LANES_N;  // a lane's rows and columns
  static constexpr int LD = BK + 4;                           // floats per row of a tile
  static constexpr int CHUNKS_PER_ROW = BK / 4;               // 16-byte copies per tile row
  static constexpr int A_FLOATS = BM * LD, B_FLOATS = BN * LD;
  static constexpr int STAGE_FLOATS = A_FLOATS + B_FLOATS;
  static constexpr int SHARED_FLOATS = STAGES * STAGE_FLOATS;
  static constexpr int SHARED_BYTES = SHARED_FLOATS * 4;  // 73 728 for BK 32: above 48 KiB

  static_assert(THREADS == 256 && TM == 8 && TN == 8);
  static_assert((LD / 4) % 2 == 1, "an odd number of 16-byte groups per row: conflict-free reads");
  static_assert((BM * CHUNKS_PER_ROW) % THREADS == 0 && (BN * CHUNKS_PER_ROW) % THREADS == 0,
                "every thread copies the same number of 16-byte chunks of each tile");
};

// The shape each compilation uses. Turing (compute capability 7.5, which the build also targets)
// lets a block have at most 64 KiB of shared memory and has no cp.async: it gets 16 values of k
// per stage, 40 KiB. Everything from Ampere on gets 32 (72 KiB; Ampere and later allow a block at
// least 99 KiB). The host launches with the matching size, dense_gemm_shared_bytes.
using DenseGemmShapeSm80 = DenseGemmShape<32>;
using DenseGemmShapeSm75 = DenseGemmShape<16>;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
using DenseGemmCompiledShape = DenseGemmShapeSm75;
#else
using DenseGemmCompiledShape = DenseGemmShapeSm80;
#endif
__host__ __device__ constexpr int dense_gemm_shared_bytes(int compute_major) {
  return compute_major >= 8 ? DenseGemmShapeSm80::SHARED_BYTES : DenseGemmShapeSm75::SHARED_BYTES;
}

// What differs between nvcc and the host compiler, all in one place.
//
// The asynchronous copy: cp.async moves 16 bytes from global to shared memory; the thread goes on
// at once, commits its copies in groups, and later waits until at most N groups are still in
// flight. With a source size of 0 it reads nothing and writes 16 zero bytes: a chunk outside the
// matrix becomes zeros without a branch. The .cg form caches in L2 only: each tile is read once
// per block, so L1 would only be polluted. The emulator copies at once, so its waits have nothing
// to wait for; the kernel's barriers order its copies exactly as they order the GPU's.
//
// Shared memory: a block may declare at most 48 KiB statically; beyond that it is dynamic shared
// memory, sized at launch (kernels/gpu/dense_layer_gpu.cu opts the kernels in). The host compiler
// has no launch-time size, so the emulator declares the larger shape's amount statically.
//
// Unrolling (nvcc only). The k loop inside a tile stays a loop: unrolled, the compiler hoists the
// next step's shared-memory reads and runs out of the 128 registers a thread may use at 2 blocks
// per SM. The loops over a lane's 8 × 8 sums are unrolled, the store's too: the sums are registers
// only when every index is known at compile time; otherwise they live in local memory (with 64
// sigmoids inline, nvcc would not unroll the store loop on its own).
#if defined(__CUDACC__)
// cp.async exists from compute capability 8.0 (Ampere) on. Older GPUs (the build also targets 7.5)
// copy through registers instead, at once, like the emulator: slower, and just as correct.
__device__ __forceinline__ void dense_copy_async_16(float* to, const float* from, bool inside) {
#if __CUDA_ARCH__ >= 800
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(to));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address), "l"(from),
               "r"(inside ? 16 : 0)
               : "memory");
#else
  *reinterpret_cast<float4*>(to) =
      inside ? *reinterpret_cast<const float4*>(from) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#endif
}
__device__ __forceinline__ void dense_copies_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int kPending>
__device__ __forceinline__ void dense_copies_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}
#define TL_DENSE_GEMM_TILES(name) extern __shared__ __align__(16) float name[]
#define TL_DENSE_GEMM_KEEP_LOOP _Pragma("unroll 1")
#define TL_DENSE_GEMM_UNROLL _Pragma("unroll")
#else
inline void dense_copy_async_16(float* to, const float* from, bool inside) {
  *reinterpret_cast<float4*>(to) =
      inside ? *reinterpret_cast<const float4*>(from) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
inline void dense_copies_commit() {}
template <int kPending>
void dense_copies_wait() {}
// One block's stages, shared by every instantiation (the emulator's __shared__ is per worker
// thread, and a block's threads all run on one worker).
inline float* dense_gemm_emulated_tiles() {
  static_assert(DenseGemmShapeSm75::SHARED_FLOATS <= DenseGemmShapeSm80::SHARED_FLOATS);
  __shared__ __align__(16) float tiles[DenseGemmShapeSm80::SHARED_FLOATS];
  return tiles;
}
#define TL_DENSE_GEMM_TILES(name) float* const name = dense_gemm_emulated_tiles()
#define TL_DENSE_GEMM_KEEP_LOOP
#define TL_DENSE_GEMM_UNROLL
#endif

// The pipeline's stages, one array for every instantiation of the body below.
__device__ __forceinline__ float* dense_gemm_tiles() {
  TL_DENSE_GEMM_TILES(tiles);
  return tiles;
}

// One matrix's share of a stage, ROWS rows × BK values of k, copied into shared memory [row][k].
// Thread t copies chunk t % CHUNKS_PER_ROW of rows t / CHUNKS_PER_ROW, + ROW_STEP, ...: a warp's
// copies are whole 128-byte row pieces, coalesced in global memory and conflict-free in shared.
// What stays in registers through the k loop is kept small on purpose (a pointer, a step, a bit
// mask, two offsets): a thread has 128 registers at 2 blocks per SM, 64 of them sums.
//
// kAsync (rows 16-byte aligned and K a multiple of 4, decided at launch) copies 16 bytes at a time
// asynchronously; a chunk is then wholly inside or wholly outside the matrix, and one outside is
// stored as zeros, which add nothing to any sum. Otherwise the floats are read one by one
// (load_four) and stored normally: the pipeline's barriers order those stores just the same.
template <class S, int ROWS, bool kAsync>
struct DenseTileCopy {
  static constexpr int CHUNKS = ROWS * S::CHUNKS_PER_ROW / S::THREADS;
  static constexpr int ROW_STEP = S::THREADS / S::CHUNKS_PER_ROW;
  static_assert(CHUNKS <= 32, "one bit per chunk in rows_ok");
  const float* src;  // this thread's first chunk of the first tile
  int step;          // ROW_STEP rows, in floats
  unsigned rows_ok;  // bit l: chunk l's row is inside the matrix
  int k_off;         // this thread's k inside a tile
  int dst;           // this thread's first float inside a tile
  const float* base;
  int rows, row0;  // for the scalar copies only (the compiler drops them when kAsync)

  __device__ DenseTileCopy(const float* base_, int rows_, int k_, int first_row)
      : src(base_ + static_cast<size_t>(first_row + threadIdx.x / S::CHUNKS_PER_ROW) * k_ +
            threadIdx.x % S::CHUNKS_PER_ROW * 4),
        step(ROW_STEP * k_),
        rows_ok(0),
        k_off(threadIdx.x % S::CHUNKS_PER_ROW * 4),
        dst(threadIdx.x / S::CHUNKS_PER_ROW * S::LD + threadIdx.x % S::CHUNKS_PER_ROW * 4),
        base(base_),
        rows(rows_),
        row0(first_row + threadIdx.x / S::CHUNKS_PER_ROW) {
    TL_DENSE_GEMM_UNROLL
    for (int l = 0; l < CHUNKS; ++l) rows_ok |= (row0 + l * ROW_STEP < rows ? 1u : 0u) << l;
  }

  __device__ __forceinline__ void operator()(float* tile, int k0, int k) const {
    const bool k_inside = k0 + k_off < k;
    TL_DENSE_GEMM_UNROLL
    for (int l = 0; l < CHUNKS; ++l) {
      float* to = tile + dst + l * ROW_STEP * S::LD;
      if (kAsync) {
        const bool inside = k_inside && (rows_ok >> l & 1u);
        // A chunk outside reads nothing, but gets the matrix's own (valid) address all the same.
        dense_copy_async_16(to, inside ? src + (l * step + k0) : base, inside);
      } else {
        *reinterpret_cast<float4*>(to) =
            load_four(base, rows, k, row0 + l * ROW_STEP, k0 + k_off, false);
      }
    }
  }
};

template <class S, bool kAsync, class Store>
__device__ void dense_gemm_pipelined(const float* X, const float* W, int batch, int in, int out,
                                     Store store) {
  constexpr int BK = S::BK, LD = S::LD, STAGES = S::STAGES;
  constexpr int TM = S::TM, TN = S::TN, LANES_M = S::LANES_M, LANES_N = S::LANES_N;
  TL_DENSE_GEMM_TILES(tiles);

  const int first_row = static_cast<int>(blockIdx.y) * S::BM;
  const int first_col = static_cast<int>(blockIdx.x) * S::BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int lane_m = lane / LANES_N, lane_n = lane % LANES_N;
  // This lane's first row and column inside the tile; its others are LANES_M (LANES_N) apart.
  const int my_row = warp / S::WARPS_N * S::WM + lane_m;
  const int my_col = warp % S::WARPS_N * S::WN + lane_n;
  const int k_tiles = (in + BK - 1) / BK;

  const DenseTileCopy<S, S::BM, kAsync> copy_x(X, batch, in, first_row);
  const DenseTileCopy<S, S::BN, kAsync> copy_w(W, out, in, first_col);
  auto start_copies = [&](int stage, int k0) {
    float* a = tiles + stage * S::STAGE_FLOATS;
    copy_x(a, k0, in);
    copy_w(a + S::A_FLOATS, k0, in);
  };

  float sum[TM][TN] = {};

  // Prologue: tile 0 on its way. Each iteration commits one group of copies, even an empty one,
  // so "tile t has landed" is always "at most STAGES - 2 groups still pending".
  TL_DENSE_GEMM_UNROLL
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) start_copies(s, s * BK);
    dense_copies_commit();
  }

  for (int t = 0; t < k_tiles; ++t) {
    dense_copies_wait<STAGES - 2>();  // this thread's copies of tile t are in ...
    __syncthreads();                  // ... and everyone's; tile t - 1's stage is free again
    const int next = t + STAGES - 1;
    if (next < k_tiles) start_copies(next % STAGES, next * BK);
    dense_copies_commit();

    const float* a = tiles + t % STAGES * S::STAGE_FLOATS + my_row * LD;
    const float* b = tiles + t % STAGES * S::STAGE_FLOATS + S::A_FLOATS + my_col * LD;
    TL_DENSE_GEMM_KEEP_LOOP
    for (int kq = 0; kq < BK; kq += 4) {
      // The 8 columns' four values of k stay in registers; each row's four arrive one row at a
      // time and meet all 8: 8 × 8 × 4 multiply-adds from 16 shared-memory reads.
      float4 bv[TN];
      TL_DENSE_GEMM_UNROLL
      for (int j = 0; j < TN; ++j)
        bv[j] = *reinterpret_cast<const float4*>(b + j * LANES_N * LD + kq);
      TL_DENSE_GEMM_UNROLL
      for (int i = 0; i < TM; ++i) {
        const float4 av = *reinterpret_cast<const float4*>(a + i * LANES_M * LD + kq);
        TL_DENSE_GEMM_UNROLL
        for (int j = 0; j < TN; ++j) {
          float& s = sum[i][j];
          s = fmaf(av.x, bv[j].x, s);
          s = fmaf(av.y, bv[j].y, s);
          s = fmaf(av.z, bv[j].z, s);
          s = fmaf(av.w, bv[j].w, s);
        }
      }
    }
  }

  TL_DENSE_GEMM_UNROLL
  for (int i = 0; i < TM; ++i) {
    const int row = first_row + my_row + i * LANES_M;
    if (row >= batch) break;
    TL_DENSE_GEMM_UNROLL
    for (int j = 0; j < TN; ++j) {
      const int col = first_col + my_col + j * LANES_N;
      if (col < out) store(row, col, sum[i][j]);
    }
  }
}

// Whether the 16-byte asynchronous copies can serve X and W: every row starts on a 16-byte
// boundary. The launch functions pick the kernel's kAsync from it.
__host__ __device__ inline bool dense_gemm_can_copy_async(const float* X, const float* W, int in) {
  return in % 4 == 0 && reinterpret_cast<unsigned long long>(X) % 16 == 0 &&
         reinterpret_cast<unsigned long long>(W) % 16 == 0;
}
