// Lesson 4, tensor-core rung 14: wgmma fed by the tensor-memory accelerator (TMA), with the
// warps split into a producer and consumers. FP16 or BF16 inputs, FP32 accumulation. C = A · B, A
// (m×k) and B (k×n) row-major, C row-major float.
//
// Rung 13 (matmul_wgmma.cuh) multiplies with wgmma, but its 256 threads still copy every tile:
// each issues its cp.asyncs, waits for them, and meets the others at a barrier before the tensor
// cores may read the stage. This rung takes the copies away from the threads that multiply, in the
// shape NVIDIA's CUTLASS gives its Hopper kernels:
// - TMA. One thread hands the copy engine a tensor map (the matrix's address, sizes, strides and
//   the 128-byte swizzle, built once on the host) and a box's coordinates; the engine copies the
//   whole 128 × 64 box of A (or a 64 × 64 box of B) into shared memory, already swizzled as wgmma
//   reads it, and fills what lies outside the matrix with zeros. Five instructions move a stage
//   that took rung 13 sixteen cp.asyncs per thread, and no address is computed by the warps that
//   multiply. Edges cost nothing: the engine clips the box.
// - mbarriers instead of __syncthreads. Each stage has a "full" barrier the copy engine signals
//   as the bytes land (the producer tells it how many to expect) and an "empty" barrier the
//   consumers signal once their wgmmas have read the stage. Nobody waits for the whole block:
//   consumers wait only for the stage they need, the producer only for the stage it refills.
// - Warp specialisation. The block is three warpgroups (384 threads): warpgroup 0 is the producer
//   (one of its threads issues every copy), warpgroups 1 and 2 the consumers, each owning 64 rows
//   of the 128 × 256 tile as one m64n256k16 accumulator (128 floats a thread). setmaxnreg moves
//   registers from the producer, which needs few, to the consumers, which need the 128
//   accumulators and their addresses.
// - Persistent blocks. The app launches one block per SM (193 KiB of shared memory leave room for
//   no second), and each walks the output tiles in groups of 8 tile rows (so the blocks running at
//   one time share panels of A and B in L2). The producer runs into the next tile's stages while
//   the consumers store the last one's results.
// - Optionally (CLUSTER = 2; checked by tools/gpu/wgmma_tma_sweep.cu, not yet timed) a cluster
//   of two blocks on vertically adjacent tiles: each copies half of their common B tile and the
//   copy engine writes it into both blocks' shared memory (multicast).
//
// The swizzled layout is rung 13's: A K-major, 128 rows of 128 bytes; B N-major in four blocks of
// 64 columns, 64 k rows of 128 bytes each; the 16-byte chunk c of row r at c XOR (r mod 8). The
// TMA's 128-byte swizzle writes exactly that, so the descriptors are rung 13's too.
//
// TMA needs every row of A and B to start on a 16-byte boundary (k and n multiples of 8, aligned
// base pointers), as cp.async did; elsewhere the lesson runs rung 13's element-by-element path.
// Compiled only for sm_90a, in lessons/04_matmul/kernels/matmul_wgmma_gpu.cu; the tensor maps come
// from the driver's cuTensorMapEncodeTiled (needs <cuda.h> for CUtensorMap).
#pragma once

#include "lessons/04_matmul/kernels/matmul_wgmma.cuh"  // wgmma_descriptor, the wgmma macro

// CLUSTER: 1, or 2 blocks (a thread-block cluster) computing vertically adjacent tiles that share
// their tile of B: each loads half of it and the copy engine writes that half into both blocks'
// shared memory (multicast), so each B byte crosses from L2 once per pair.
template <int STAGES_, int CLUSTER_ = 1>
struct WgmmaTmaShape {
  static constexpr int BM = 128, BN = 256, BK = 64, STAGES = STAGES_, CLUSTER = CLUSTER_;
  static_assert(CLUSTER == 1 || CLUSTER == 2, "blocks of a cluster share B in halves");
  static constexpr int CONSUMERS = 2, THREADS = 128 * (CONSUMERS + 1);
  static constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
  static constexpr int B_BLOCK_BYTES = BK * 64 * 2;  // one 64-column block of B's stage
  static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
  // The stages (1024-byte aligned: the swizzle's period), then a full and an empty barrier per
  // stage; + 1024 because dynamic shared memory does not promise the alignment.
  static constexpr int SHARED_BYTES = STAGES * STAGE_BYTES + 2 * STAGES * 8 + 1024;
  static_assert(STAGES >= 2, "a stage to compute and one to fill");
};

// The lesson's TMA rung: four stages, 193 KiB of shared memory, one block per SM.
using MatmulWgmmaTma = WgmmaTmaShape<4>;

#if defined(THREADLAB_WGMMA_DEVICE)
__device__ __forceinline__ void mbarrier_init(unsigned barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(barrier), "r"(arrivals));
}
// Arrive, and tell the barrier `bytes` more are coming from the copy engine: the phase completes
// when every arrival has come and every byte has landed.
__device__ __forceinline__ void mbarrier_arrive_expect_bytes(unsigned barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barrier), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(unsigned barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}
// Arrive on the barrier at the same place in block `rank` of this cluster.
__device__ __forceinline__ void mbarrier_arrive_cluster(unsigned barrier, unsigned rank) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n}\n" ::"r"(barrier),
      "r"(rank)
      : "memory");
}
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}
// Every thread of every block of the cluster.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
}
// Wait until the barrier's phase with this parity has completed.
__device__ __forceinline__ void mbarrier_wait(unsigned barrier, unsigned parity) {
  asm volatile(
      "{\n.reg .pred done;\nwait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n}\n" ::"r"(barrier),
      "r"(parity)
      : "memory");
}
// The copy engine moves the box at (inner, outer) of the tensor map to shared memory and signals
// `barrier` with its bytes.
__device__ __forceinline__ void tma_load_2d(unsigned destination, const void* map, int inner,
                                            int outer, unsigned barrier) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(destination),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(inner), "r"(outer), "r"(barrier)
      : "memory");
}
// The same copy written to the same place in every block of the cluster named in `blocks` (a bit
// per rank), each block's barrier signalled with the bytes it received.
__device__ __forceinline__ void tma_load_2d_multicast(unsigned destination, const void* map,
                                                      int inner, int outer, unsigned barrier,
                                                      unsigned short blocks) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(destination),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(inner), "r"(outer), "r"(barrier),
      "h"(blocks)
      : "memory");
}

#endif

// a_map: A as a (k, m) tensor of 2-byte elements, box 64 × 128; b_map: B as (n, k), box 64 × 64;
// both with the 128-byte swizzle and zero fill (matmul_wgmma_gpu.cu builds them).
template <class Shape, class Input, class Trace>
__global__ void __launch_bounds__(Shape::THREADS, 1)
    matmul_wgmma_tma(const __grid_constant__ CUtensorMap a_map,
                     const __grid_constant__ CUtensorMap b_map, float* c, int m, int n, int k,
                     Trace trace) {
#if defined(THREADLAB_WGMMA_DEVICE)
  constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, STAGES = Shape::STAGES;
  constexpr int STAGE_BYTES = Shape::STAGE_BYTES, A_BYTES = Shape::A_BYTES;
  extern __shared__ __align__(16) unsigned char wgmma_tma_shared[];
  const unsigned shared_base = mma_shared_address(wgmma_tma_shared);
  const unsigned base = (shared_base + 1023u) & ~1023u;
  const unsigned full = base + STAGES * STAGE_BYTES;  // full[s] at full + 8s
  const unsigned empty = full + STAGES * 8;           // empty[s] at empty + 8s
  const int t = threadIdx.x, warpgroup = t / 128;
  const int k_tiles = (k + BK - 1) / BK;
  // The output tiles, numbered in groups of kGroupRows rows of tiles (all of a group's columns,
  // row by row within a column), so the blocks running at one time share panels of A and B in L2.
  // Block b computes tiles b, b + blocks, b + 2·blocks, ...: one tile each when the grid covers
  // them all, several when the grid is one block per SM (persistent).
  // With a cluster, the numbered units are pairs of vertically adjacent tiles, and the blocks of
  // a cluster (consecutive in x) take the pair's upper and lower tile.
  constexpr int CLUSTER = Shape::CLUSTER;
  const unsigned rank = CLUSTER > 1 ? cluster_rank() : 0;
  const int tile_rows = (m + BM - 1) / BM, tile_cols = (n + BN - 1) / BN;
  const int unit_rows = (tile_rows + CLUSTER - 1) / CLUSTER;
  const int tile_count = unit_rows * tile_cols;
  const int first_tile = (blockIdx.y * gridDim.x + blockIdx.x) / CLUSTER;
  const int blocks = gridDim.x * gridDim.y / CLUSTER;
  auto tile_origin = [&](int tile, int& row, int& col) {
    constexpr int kGroupRows = 8;
    const int per_group = kGroupRows * tile_cols;
    const int group_row = tile / per_group * kGroupRows;
    const int rows_here = min(unit_rows - group_row, kGroupRows);
    const int in_group = tile % per_group;
    row = ((group_row + in_group % rows_here) * CLUSTER + static_cast<int>(rank)) * BM;
    col = in_group / rows_here * BN;
  };

  if (t == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(full + 8 * s, 1);  // the producer's arrival, plus the bytes it announces
      // One arrival from each consumer warp: each warp knows only its own wgmmas are done. With
      // a cluster, from the other block's warps too: its copies write into this block's stage.
      mbarrier_init(empty + 8 * s, Shape::CONSUMERS * 4 * CLUSTER);
    }
    // Make the initialised barriers visible to the copy engine (the async proxy).
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  // With a cluster, no block may signal or copy into the other before its barriers exist.
  if constexpr (CLUSTER > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }

  // `use` counts the stages used so far across this block's tiles: stage use % STAGES, in its
  // (use / STAGES)-th round, whose parity the barriers' waits name.
  if (warpgroup == 0) {
    // The producer: few registers, one thread issuing copies. It runs ahead into the next tile
    // while the consumers store this one's results.
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (t == 0) {
      int use = 0;
      for (int tile = first_tile; tile < tile_count; tile += blocks) {
        int first_row = 0, first_col = 0;
        tile_origin(tile, first_row, first_col);
        for (int kt = 0; kt < k_tiles; ++kt, ++use) {
          const int s = use % STAGES;
          // Before refilling a stage, wait until both consumers are done with what it held.
          if (use >= STAGES) mbarrier_wait(empty + 8 * s, (use / STAGES - 1) & 1);
          mbarrier_arrive_expect_bytes(full + 8 * s, STAGE_BYTES);
          const unsigned stage = base + s * STAGE_BYTES;
          const int k0 = kt * BK;
          tma_load_2d(stage, &a_map, k0, first_row, full + 8 * s);
          if constexpr (CLUSTER > 1) {
            // This block's half of B, to both blocks.
#pragma unroll
            for (int half = 0; half < BN / 64 / 2; ++half) {
              const int block = static_cast<int>(rank) * (BN / 64 / 2) + half;
              tma_load_2d_multicast(stage + A_BYTES + block * Shape::B_BLOCK_BYTES, &b_map,
                                    first_col + 64 * block, k0, full + 8 * s, 0b11);
            }
          } else {
#pragma unroll
            for (int block = 0; block < BN / 64; ++block) {
              tma_load_2d(stage + A_BYTES + block * Shape::B_BLOCK_BYTES, &b_map,
                          first_col + 64 * block, k0, full + 8 * s);
            }
          }
        }
      }
    }
    // With a cluster, the producer's threads wait at the end with everyone (below).
    if constexpr (CLUSTER > 1) {
      cluster_sync();
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int group = warpgroup - 1;  // this consumer's 64 rows of the tile
  const int warp = t % 128 / 32, lane = t % 32;
  const StoreToC<Trace> store{c, n, trace};
  const bool pairs = n % 2 == 0 && reinterpret_cast<unsigned long long>(c) % 8 == 0;
  // A stage is free once both consumers, of both blocks of a cluster, have read it.
  auto release = [&](unsigned barrier) {
    mbarrier_arrive(barrier);
    if constexpr (CLUSTER > 1) mbarrier_arrive_cluster(barrier, rank ^ 1u);
  };
  int use = 0;
#pragma unroll 1
  for (int tile = first_tile; tile < tile_count; tile += blocks) {
    int first_row = 0, first_col = 0;
    tile_origin(tile, first_row, first_col);
    // Zeros, though the tile's first wgmma ignores d: without them the compiler would keep the
    // previous tile's results alive into this one (the instruction names d as an input) and spill
    // them around the stores. They are written while no wgmma is in flight.
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;
    for (int kt = 0; kt < k_tiles; ++kt, ++use) {
      const int s = use % STAGES;
      mbarrier_wait(full + 8 * s, (use / STAGES) & 1);  // the stage's bytes have landed
      const unsigned a_stage = base + s * STAGE_BYTES + group * 64 * 128;
      const unsigned b_stage = base + s * STAGE_BYTES + A_BYTES;
      asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk) {
        wgmma_m64n256k16<Input>(d, wgmma_descriptor(a_stage + kk * 32, 16, 1024),
                                wgmma_descriptor(b_stage + kk * 2048, BK * 128, 1024),
                                kt > 0 || kk > 0);
      }
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
      // This k tile's wgmmas stay in flight while the previous one's are waited for; then the
      // previous one's stage is free.
      asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
      if (kt > 0 && lane == 0) release(empty + 8 * ((use - 1) % STAGES));
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    // The tile's last stage is free too (with k = 0 there was none, and C = 0).
    if (k_tiles > 0 && lane == 0) release(empty + 8 * ((use - 1) % STAGES));

      // d[4j + 2h] and d[4j + 2h + 1]: row 16 · warp + lane / 4 + 8h of the consumer's 64, columns
      // 8j + 2 · (lane % 4) and + 1 (rung 13's layout).
#pragma unroll
    for (int j = 0; j < 32; ++j) {
      const int col = first_col + 8 * j + 2 * (lane % 4);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = first_row + group * 64 + warp * 16 + lane / 4 + 8 * h;
        if (row >= m) continue;
        const float first = d[4 * j + 2 * h], second = d[4 * j + 2 * h + 1];
        if (pairs && col + 1 < n) {
          *reinterpret_cast<float2*>(&c[static_cast<long long>(row) * n + col]) =
              make_float2(first, second);
          trace.wrote(static_cast<unsigned long long>(row) * n + col);
          trace.wrote(static_cast<unsigned long long>(row) * n + col + 1);
        } else {
          if (col < n) store(row, col, first);
          if (col + 1 < n) store(row, col + 1, second);
        }
      }
    }
  }
  // The other block may still copy into this one's shared memory or arrive on its barriers until
  // it has finished too.
  if constexpr (CLUSTER > 1) {
    cluster_sync();
  }
#else
  (void)a_map, (void)b_map, (void)c, (void)m, (void)n, (void)k, (void)trace;
#endif
}
