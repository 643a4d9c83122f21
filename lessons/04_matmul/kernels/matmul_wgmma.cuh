// Lesson 4, tensor-core rung 13: wgmma, Hopper's warpgroup matrix multiply. FP16 inputs, FP32
// accumulation. C = A · B, A (m×k) and B (k×n) row-major __half, C row-major float. (The same
// kernel compiled for BF16 inputs is the TMA rung's path for rows TMA cannot copy:
// matmul_wgmma_tma.cuh.)
//
// mma.sync (the previous rung) is one warp's instruction: 32 lanes multiply a 16×8×16 piece with
// operands in registers, which ldmatrix first copies out of shared memory. Hopper (compute
// capability 9.0) added wgmma: four warps together (a warpgroup, 128 threads) issue one
// instruction for a 64×N×16 piece, N up to 256, and the tensor cores read A and B straight from
// shared memory. The instruction is asynchronous: the warps issue it, go on (here: to nothing),
// and wait for it with wgmma.wait_group. On an H200 the mma.sync rung reached about 0.49 of cuBLAS
// FP16, this one about 0.63 (docs/PERFORMANCE.md, "Tensor cores"): cuBLAS itself uses wgmma on
// Hopper.
//
// - The block is 2 warpgroups (256 threads) and owns a 128×256 tile of C; warpgroup g owns rows
//   64g to 64g + 63 as one m64n256k16 accumulator: 64 · 256 floats over 128 threads, 128 registers
//   each, in mma.sync's C layout repeated over 32 tiles of 8 columns.
// - Shared memory must be laid out as wgmma reads it, and wgmma reads through a descriptor: a
//   64-bit word with the start address, two strides and a swizzle mode. This kernel uses the
//   128-byte swizzle: A is stored K-major (each row of the 128 × 64 tile is 64 halves, 128 bytes)
//   and B N-major (each of its 64 k rows is split into four blocks of 64 columns, 128 bytes a row);
//   in every 8-row group, the 16-byte chunk c of row r sits at chunk c ^ (r % 8). The XOR spreads
//   the 8 rows' chunk c over all 32 banks: the tensor cores read without bank conflicts, as the
//   padding of the mma rung did for ldmatrix.
//   - A's descriptor: 8-row groups 1024 bytes apart; each k step of 16 moves the start 32 bytes
//     along the (swizzled) rows: the hardware applies the XOR to the final address.
//   - B's descriptor: "transposed" (N-major, allowed for 16-bit inputs): 8-row groups 1024 bytes
//     apart, the 64-column blocks BK · 128 bytes apart; each k step moves 16 rows, 2048 bytes.
// - The tiles travel by cp.async as in the mma rung, STAGES of them in flight. cp.async writes
//   through the ordinary ("generic") path and wgmma reads through the asynchronous one, so a
//   fence.proxy.async makes the copies visible to it before the barrier.
// - kOverlap: wait for all but the last group of wgmmas (wait_group 1) instead of all of them, so
//   the tensor cores still work on tile t while the warps pass the barrier and issue tile t + 1.
//   The stage tile t - 1 used can then still be read when the loads for t + STAGES - 1 would
//   overwrite it, so with kOverlap the copies run only STAGES - 2 tiles ahead.
//
// As in the mma rung, the 16-byte copies need k and n multiples of 8 and 16-byte-aligned
// matrices; otherwise the same kernel compiled with kAsyncCopies = false copies element by element
// through registers into the same swizzled places. A copy outside the matrix writes zeros.
//
// Compiled only for sm_90a (the wgmma instructions exist only in that arch-specific target), in a
// translation unit of its own (lessons/04_matmul/kernels/matmul_wgmma_gpu.cu); needs <cuda_fp16.h>.
#pragma once

#include "lessons/04_matmul/kernels/matmul_mma.cuh"  // mma_shared_address, mma_copy_* (cp.async)

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define THREADLAB_WGMMA_DEVICE 1
#endif

template <int STAGES_, bool kOverlap_>
struct WgmmaShape {
  static constexpr int BM = 128, BN = 256, BK = 64, THREADS = 256, STAGES = STAGES_;
  static constexpr bool kOverlap = kOverlap_;
  static constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
  static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
  // + 1024: the swizzle pattern repeats every 1024 bytes, and the stages must start on such a
  // boundary, which dynamic shared memory does not promise.
  static constexpr int SHARED_BYTES = STAGES * STAGE_BYTES + 1024;
  static_assert(STAGES >= (kOverlap ? 3 : 2), "a stage to compute, one to fill (+1 overlapped)");
};

// The lesson's wgmma rung, the faster of the shapes tools/gpu/perf_sweep.cu measured on an H200.
using MatmulWgmma = WgmmaShape<4, true>;

// The input format, as a tag the kernels pick the instruction by. Both are 2 bytes an element, and
// the copies move their bits without looking at them (zero bits are +0 in both).
struct WgmmaFp16 {
  static constexpr bool kBf16 = false;
};
struct WgmmaBf16 {
  static constexpr bool kBf16 = true;
};

#if defined(THREADLAB_WGMMA_DEVICE)
// A shared-memory matrix descriptor with the 128-byte swizzle (bits 62-63 = 1): start address,
// "leading" and "stride" byte offsets, each in units of 16 bytes.
__device__ __forceinline__ unsigned long long wgmma_descriptor(unsigned address, unsigned leading,
                                                               unsigned stride) {
  return static_cast<unsigned long long>((address & 0x3FFFF) >> 4) |
         static_cast<unsigned long long>(leading >> 4) << 16 |
         static_cast<unsigned long long>(stride >> 4) << 32 | 1ull << 62;
}

// d = A · B, or d += A · B with `accumulate`, for this warpgroup's 64×256 piece and 16 of K; A
// K-major, B N-major ("transposed", the last immediate), scale 1 for both. INPUT is the PTX type
// of A and B: f16 here, bf16 in the TMA rung (lessons/04_matmul/kernels/matmul_wgmma_tma.cuh); the
// 128 accumulators are the same registers either way.
#define THREADLAB_WGMMA_M64N256K16(INPUT, d, a, b, accumulate)                       \
  asm volatile(                                                                      \
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %130, 0;\n"                \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." INPUT "." INPUT                 \
      " {" THREADLAB_WGMMA_D_REGISTERS "}, %128, %129, accumulate, 1, 1, 0, 1;\n}\n" \
      : THREADLAB_WGMMA_D_OPERANDS(d)                                                \
      : "l"(a), "l"(b), "r"(static_cast<int>(accumulate)))
#define THREADLAB_WGMMA_D_REGISTERS                                                              \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                       \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "             \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "             \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "             \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "             \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "             \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define THREADLAB_WGMMA_D_OPERANDS(d)                                                             \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),  \
      "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),  \
      "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),  \
      "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),  \
      "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),  \
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),  \
      "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),  \
      "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]),  \
      "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),  \
      "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]),  \
      "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),          \
      "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),         \
      "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]),         \
      "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),         \
      "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

template <class Input = WgmmaFp16>
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], unsigned long long a,
                                                 unsigned long long b, bool accumulate) {
  if constexpr (Input::kBf16) {
    THREADLAB_WGMMA_M64N256K16("bf16", d, a, b, accumulate);
  } else {
    THREADLAB_WGMMA_M64N256K16("f16", d, a, b, accumulate);
  }
}
#endif

// a and b: m × k and k × n elements of Input's format (__half or __nv_bfloat16), read as raw bits.
template <class Shape, bool kAsyncCopies, class Trace, class Input = WgmmaFp16>
__global__ void __launch_bounds__(256, 1)
    matmul_wgmma(const unsigned short* a, const unsigned short* b, float* c, int m, int n, int k,
                 Trace trace) {
#if defined(THREADLAB_WGMMA_DEVICE)
  constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, STAGES = Shape::STAGES;
  constexpr int STAGE_BYTES = Shape::STAGE_BYTES, A_BYTES = Shape::A_BYTES;
  // How many tiles the copies run ahead of the tile being multiplied.
  constexpr int AHEAD = Shape::kOverlap ? STAGES - 2 : STAGES - 1;
  extern __shared__ __align__(16) unsigned char wgmma_shared[];
  const unsigned shared_base = mma_shared_address(wgmma_shared);
  const unsigned base = (shared_base + 1023u) & ~1023u;
  unsigned char* const base_pointer = wgmma_shared + (base - shared_base);
  const int t = threadIdx.x, group = t / 128;
  const int first_row = blockIdx.y * BM, first_col = blockIdx.x * BN;
  const int tiles = (k + BK - 1) / BK;

  // 16 bytes (8 halves) from `from` (row `row` of the tile, valid halves `valid`: 8 or fewer at
  // the matrix's edge) to byte offset `to` of the block's shared memory.
  auto copy_chunk = [&](unsigned to, const unsigned short* from, bool inside, int valid) {
    if constexpr (kAsyncCopies) {
      mma_copy_async_16(base_pointer + to, inside ? from : a, inside ? 16 : 0);
    } else {
      unsigned short* const destination = reinterpret_cast<unsigned short*>(base_pointer + to);
      for (int j = 0; j < 8; ++j) destination[j] = inside && j < valid ? from[j] : 0;
    }
  };
  auto load_tile = [&](int stage, int tile) {
    const int k0 = tile * BK;
    const unsigned a_stage = stage * STAGE_BYTES, b_stage = a_stage + A_BYTES;
    // A: 128 rows of 8 chunks; chunk c of row r goes to chunk c ^ (r % 8) of that row.
#pragma unroll
    for (int l = 0; l < BM * BK / 8 / Shape::THREADS; ++l) {
      const int e = t + l * Shape::THREADS, row = e / 8, chunk = e % 8;
      const int global_row = first_row + row, global_k = k0 + chunk * 8;
      copy_chunk(a_stage + row * 128 + ((chunk ^ (row % 8)) << 4),
                 a + static_cast<long long>(global_row) * k + global_k,
                 global_row < m && global_k < k, k - global_k);
    }
    // B: 64 k rows of 32 chunks, in four blocks of 64 columns, each block 64 rows of 128 bytes.
#pragma unroll
    for (int l = 0; l < BK * BN / 8 / Shape::THREADS; ++l) {
      const int e = t + l * Shape::THREADS, row = e / 32, column_chunk = e % 32;
      const int block = column_chunk / 8, chunk = column_chunk % 8;
      const int global_k = k0 + row, global_col = first_col + column_chunk * 8;
      copy_chunk(b_stage + block * (BK * 128) + row * 128 + ((chunk ^ (row % 8)) << 4),
                 b + static_cast<long long>(global_k) * n + global_col,
                 global_k < k && global_col < n, n - global_col);
    }
  };

  // No zeroing: the first wgmma overwrites d (its predicate says so). An instruction that wrote
  // the accumulators while wgmmas are in flight would make the compiler serialize them.
  float d[128];
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < tiles) load_tile(s, s);
    mma_copy_commit();
  }
  for (int tile = 0; tile < tiles; ++tile) {
    mma_copy_wait<AHEAD - 1>();  // this thread's copies of `tile` have landed
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    // After the barrier everyone's copies have landed, and every warpgroup has waited for the
    // wgmmas that read the stage the next copies overwrite.
    __syncthreads();
    const int next = tile + AHEAD;
    if (next < tiles) load_tile(next % STAGES, next);
    mma_copy_commit();

    const unsigned a_stage = base + (tile % STAGES) * STAGE_BYTES + group * 64 * 128;
    const unsigned b_stage = base + (tile % STAGES) * STAGE_BYTES + A_BYTES;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
    for (int kk = 0; kk < BK / 16; ++kk) {
      wgmma_m64n256k16<Input>(d, wgmma_descriptor(a_stage + kk * 32, 16, 1024),
                              wgmma_descriptor(b_stage + kk * 2048, BK * 128, 1024),
                              tile > 0 || kk > 0);
    }
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    if constexpr (Shape::kOverlap) {
      asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    } else {
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  mma_copy_wait<0>();
  if (tiles == 0) {  // k = 0: no wgmma wrote d, and C = 0
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  }  // only empty groups remain; nothing may be in flight when the block exits

  // d[4j + 2h] and d[4j + 2h + 1]: row 16 · warp + lane / 4 + 8h of the warpgroup's 64, columns
  // 8j + 2 · (lane % 4) and + 1.
  const int warp = t % 128 / 32, lane = t % 32;
  const StoreToC<Trace> store{c, n, trace};
  const bool pairs = n % 2 == 0 && reinterpret_cast<unsigned long long>(c) % 8 == 0;
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
#else
  (void)a, (void)b, (void)c, (void)m, (void)n, (void)k, (void)trace;
#endif
}
