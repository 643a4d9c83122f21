// Lesson 11, rung 5 (GPU only): the implicit GEMM of convolution.cuh on tensor cores. FP16 inputs,
// FP32 accumulation and output. NHWC only, with C and K multiples of 8: then 8 consecutive
// reduction indices (r, s, c .. c + 7) are 8 consecutive halves of one input pixel, 16 bytes that
// one cp.async copies straight into shared memory (a padding pixel copies nothing and writes
// zeros), and each row of the weights (a (R·S·C) × K matrix of halves) is whole 16-byte pieces.
//
// A block of 8 warps computes a 128 × 64 tile of the output (128 pixels × 64 filters), each warp a
// 32 × 32 piece as 2 × 2 WMMA fragments of 16 × 16, stepping through the reduction 32 at a time.
// Three shared buffers: the copies of the next two steps are in flight while the tensor cores
// multiply this one. The tile of results goes through shared memory on its way out, so that the
// stores to the output are whole rows of channels. Launch with kTensorBlock threads, grid
// (ceil(N·P·Q / 128), ceil(K / 64)).
constexpr int kTensorM = 128;  // output pixels per block
constexpr int kTensorN = 64;   // filters per block
constexpr int kTensorK = 32;   // reduction per step
constexpr int kTensorBlock = 256;

template <class Trace>
__global__ void __launch_bounds__(kTensorBlock)
    conv_implicit_gemm_fp16(const __half* in, const __half* wg, float* out, int batch, int channels,
                            int height, int width, int filters, int filter_h, int filter_w,
                            int stride, int pad, Trace trace) {
  using namespace nvcuda;
  const Conv d = conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride,
                            pad, /*nhwc=*/1);
  constexpr int BM = kTensorM, BN = kTensorN, BK = kTensorK;
  constexpr int A_PITCH = BK + 8;  // halves; the 8 extra shift rows across banks
  constexpr int B_PITCH = BN + 8;
  constexpr int C_PITCH = BN + 4;  // floats
  constexpr int STAGES = 3;
  constexpr int A_BYTES = STAGES * BM * A_PITCH * 2;
  constexpr int B_BYTES = STAGES * BK * B_PITCH * 2;
  constexpr int C_BYTES = BM * C_PITCH * 4;
  constexpr int SHARED = (A_BYTES + B_BYTES) > C_BYTES ? (A_BYTES + B_BYTES) : C_BYTES;
  __shared__ __align__(128) unsigned char shared[SHARED];
  __half* a_tile = reinterpret_cast<__half*>(shared);            // [STAGES][BM][A_PITCH]
  __half* b_tile = reinterpret_cast<__half*>(shared + A_BYTES);  // [STAGES][BK][B_PITCH]
  float* c_tile = reinterpret_cast<float*>(shared);              // [BM][C_PITCH], at the end

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_m = warp / 2;  // 0..3: rows warp_m·32 ..
  const int warp_n = warp % 2;  // 0..1: columns warp_n·32 ..
  const long long rows = static_cast<long long>(d.n) * d.p * d.q;
  const int reduction = d.r * d.s * d.c;
  const long long m0 = static_cast<long long>(blockIdx.x) * BM;
  const int n0 = blockIdx.y * BN;

  // A: 128 rows × 4 pieces of 8 halves per step, 2 pieces per thread: rows tid / 4 and
  // tid / 4 + 64, piece tid % 4, the same every step.
  const int piece = tid % 4;
  int row_image[2], row_y[2], row_x[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const long long m = m0 + tid / 4 + i * 64;
    if (m < rows) {
      const int q = static_cast<int>(m % d.q);
      const long long rest = m / d.q;
      row_image[i] = static_cast<int>(rest / d.p);
      row_y[i] = static_cast<int>(rest % d.p) * d.stride - d.pad;
      row_x[i] = q * d.stride - d.pad;
    } else {
      row_image[i] = -1;
      row_y[i] = 0;
      row_x[i] = 0;
    }
  }
  auto load = [&](int buffer, int k0) {
    const int kk = k0 + piece * 8;  // 8 channels of one (r, s): C is a multiple of 8
    const bool in_reduction = kk < reduction;
    const int c = in_reduction ? kk % d.c : 0;
    const int rs = in_reduction ? kk / d.c : 0;
    const int r = rs / d.s;
    const int s = rs % d.s;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int y = row_y[i] + r;
      const int x = row_x[i] + s;
      const bool inside =
          in_reduction && row_image[i] >= 0 && y >= 0 && y < d.h && x >= 0 && x < d.w;
      const __half* from = inside ? in + conv_input_index(d, row_image[i], c, y, x) : in;
      __half* to = a_tile + (buffer * BM + tid / 4 + i * 64) * A_PITCH + piece * 8;
      cp_async_16(cp_async_shared_address(reinterpret_cast<float*>(to)),
                  reinterpret_cast<const float*>(from), inside);
    }
    // B: 32 rows × 8 pieces of 8 halves, one per thread.
    const int kr = k0 + tid / 8;
    const int col = n0 + (tid % 8) * 8;
    const bool inside = kr < reduction && col < d.k;  // K is a multiple of 8: whole pieces
    const __half* from = inside ? wg + static_cast<long long>(kr) * d.k + col : wg;
    __half* to = b_tile + (buffer * BK + tid / 8) * B_PITCH + (tid % 8) * 8;
    cp_async_16(cp_async_shared_address(reinterpret_cast<float*>(to)),
                reinterpret_cast<const float*>(from), inside);
  };

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  }
  const int steps = (reduction + BK - 1) / BK;
  // The first STAGES - 1 steps' copies set off before any multiply. Every thread commits one group
  // per step, empty where there is nothing left to copy, so that group g is always step g's.
  for (int stage = 0; stage < STAGES - 1; ++stage) {
    if (stage < steps) load(stage, stage * BK);
    cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of this step have landed
    // Everyone's have, and everyone is done multiplying the previous step, whose buffer the copies
    // set off next may now overwrite.
    __syncthreads();
    const int ahead = step + STAGES - 1;
    if (ahead < steps) load(ahead % STAGES, ahead * BK);
    cp_async_commit();
    const int buffer = step % STAGES;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(a[i], a_tile + (buffer * BM + warp_m * 32 + i * 16) * A_PITCH + kk,
                               A_PITCH);
      }
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        wmma::load_matrix_sync(b[j], b_tile + (buffer * BK + kk) * B_PITCH + warp_n * 32 + j * 16,
                               B_PITCH);
      }
#pragma unroll
      for (int i = 0; i < 2; ++i) {
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
      }
    }
  }
  cp_async_wait<0>();  // only empty groups are left; none may land in what comes next
  __syncthreads();     // everyone is done multiplying: the results may reuse the input buffers

  // The results through shared memory (the input buffers are no longer needed), then out in rows
  // of channels: thread t writes columns t % 64 of rows t / 64, t / 64 + 4, ...
#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(c_tile + (warp_m * 32 + i * 16) * C_PITCH + warp_n * 32 + j * 16,
                              acc[i][j], C_PITCH, wmma::mem_row_major);
    }
  }
  __syncthreads();
  const int col = n0 + tid % BN;
  for (int row = tid / BN; row < BM; row += kTensorBlock / BN) {
    const long long m = m0 + row;
    if (m >= rows || col >= d.k) continue;
    // NHWC: output pixel m's channels are contiguous, at m · K.
    const long long o = m * d.k + col;
    out[o] = c_tile[row * C_PITCH + tid % BN];
    trace.wrote(static_cast<unsigned long long>(o));
  }
}
