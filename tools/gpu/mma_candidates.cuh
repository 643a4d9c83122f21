// Candidate versions of lessons/04_matmul/kernels/matmul_mma.cuh for tools/gpu/perf_sweep.cu
// (included inside its namespace, after lessons/04_matmul/kernels/matmul_mma.cuh): the same tiles,
// layout and pipeline, with the address arithmetic taken out of the inner loops.
//
// - Shared-memory addresses are 32-bit offsets computed once per thread (ldmatrix and cp.async take
//   them directly): the loop adds compile-time constants and the stage's offset.
// - Each thread's cp.async sources are one pointer per matrix, advanced by BK columns of A and BK
//   rows of B per tile; the bounds are a row (column) test made once and a k test per tile.
// - kL2Prefetch: cp.async with .L2::128B, which asks L2 to fetch the whole 128-byte line.
template <class Shape, bool kL2Prefetch>
__global__ void __launch_bounds__(Shape::THREADS)
    matmul_mma_lean(const __half* a, const __half* b, float* c, int m, int n, int k) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, STAGES = Shape::STAGES;
  constexpr int A_LD = Shape::A_LD, B_LD = Shape::B_LD, THREADS = Shape::THREADS;
  constexpr int A_LOADS = Shape::A_CHUNKS / THREADS, B_LOADS = Shape::B_CHUNKS / THREADS;
  constexpr int A_ROWS_PER_LOAD = THREADS / (BK / 8), B_ROWS_PER_LOAD = THREADS / (BN / 8);
  extern __shared__ __align__(16) unsigned char mma_shared[];
  const unsigned a_shared = mma_shared_address(mma_shared);
  const unsigned b_shared = a_shared + STAGES * Shape::A_STAGE * 2;

  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int warp_row = warp / Shape::WARPS_N * Shape::WM;
  const int warp_col = warp % Shape::WARPS_N * Shape::WN;
  const int first_row = blockIdx.y * BM, first_col = blockIdx.x * BN;
  const int tiles = (k + BK - 1) / BK;

  // This thread's chunks: A rows a_row + l · A_ROWS_PER_LOAD at k offset a_k; B k rows
  // b_k + l · B_ROWS_PER_LOAD at column b_col.
  const int a_row = t / (BK / 8), a_k = t % (BK / 8) * 8;
  const int b_k = t / (BN / 8), b_col = t % (BN / 8) * 8;
  const __half* a_source = a + static_cast<long long>(first_row + a_row) * k + a_k;
  const __half* b_source = b + static_cast<long long>(b_k) * n + first_col + b_col;
  const unsigned a_store = a_shared + (a_row * A_LD + a_k) * 2;
  const unsigned b_store = b_shared + (b_k * B_LD + b_col) * 2;
  unsigned a_rows_inside = 0;  // bit l: row a_row + l · A_ROWS_PER_LOAD lies inside A
#pragma unroll
  for (int l = 0; l < A_LOADS; ++l) {
    a_rows_inside |= (first_row + a_row + l * A_ROWS_PER_LOAD < m ? 1u : 0u) << l;
  }
  const bool b_col_inside = first_col + b_col < n;

  auto copy = [](unsigned to, const void* from, int bytes) {
    if constexpr (kL2Prefetch) {
      asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(to), "l"(from),
                   "r"(bytes));
    } else {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(from),
                   "r"(bytes));
    }
  };
  auto load_tile = [&](int stage, int tile) {
    const int k0 = tile * BK;
    const bool a_k_inside = k0 + a_k < k;
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      const bool inside = a_k_inside && (a_rows_inside >> l & 1u);
      const __half* from = a_source + static_cast<long long>(l * A_ROWS_PER_LOAD) * k + k0;
      copy(a_store + (stage * Shape::A_STAGE + l * A_ROWS_PER_LOAD * A_LD) * 2, inside ? from : a,
           inside ? 16 : 0);
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
      const bool inside = b_col_inside && k0 + b_k + l * B_ROWS_PER_LOAD < k;
      const __half* from = b_source + static_cast<long long>(k0 + l * B_ROWS_PER_LOAD) * n;
      copy(b_store + (stage * Shape::B_STAGE + l * B_ROWS_PER_LOAD * B_LD) * 2, inside ? from : b,
           inside ? 16 : 0);
    }
  };

  // ldmatrix row addresses of this lane, stage 0, kk 0, first instruction tile.
  const unsigned a_fetch = a_shared + ((warp_row + lane % 16) * A_LD + lane / 16 * 8) * 2;
  const unsigned b_fetch = b_shared + ((lane % 16) * B_LD + warp_col + lane / 16 * 8) * 2;

  float sum[Shape::MI][Shape::NI][4] = {};
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) load_tile(s, s);
    mma_copy_commit();
  }
  int stage = 0;
  for (int tile = 0; tile < tiles; ++tile) {
    mma_copy_wait<STAGES - 2>();
    __syncthreads();
    const int next = tile + STAGES - 1;
    if (next < tiles) load_tile(next % STAGES, next);
    mma_copy_commit();

    const unsigned a_stage = a_fetch + stage * Shape::A_STAGE * 2;
    const unsigned b_stage = b_fetch + stage * Shape::B_STAGE * 2;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned a_fragment[Shape::MI][4];
      unsigned b_fragment[Shape::NI][2];
#pragma unroll
      for (int i = 0; i < Shape::MI; ++i) {
        unsigned* r = a_fragment[i];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a_stage + (16 * i * A_LD + kk) * 2));
      }
#pragma unroll
      for (int j = 0; j < Shape::NI; j += 2) {
        unsigned r[4];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(b_stage + (kk * B_LD + 8 * j) * 2));
        b_fragment[j][0] = r[0];
        b_fragment[j][1] = r[1];
        b_fragment[j + 1][0] = r[2];
        b_fragment[j + 1][1] = r[3];
      }
#pragma unroll
      for (int i = 0; i < Shape::MI; ++i) {
#pragma unroll
        for (int j = 0; j < Shape::NI; ++j) mma_m16n8k16(sum[i][j], a_fragment[i], b_fragment[j]);
      }
    }
    stage = stage + 1 == STAGES ? 0 : stage + 1;
  }
  mma_copy_wait<0>();

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
        float* const to = c + static_cast<long long>(row) * n + col;
        if (pairs && col + 1 < n) {
          *reinterpret_cast<float2*>(to) = make_float2(first, second);
        } else {
          if (col < n) to[0] = first;
          if (col + 1 < n) to[1] = second;
        }
      }
    }
  }
#else
  (void)a, (void)b, (void)c, (void)m, (void)n, (void)k;
#endif
}
