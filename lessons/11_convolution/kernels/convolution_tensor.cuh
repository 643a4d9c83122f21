// Lesson 11, rung 5 (GPU only): the implicit GEMM of convolution.cuh on tensor cores. FP16 inputs,
// FP32 accumulation and output. NHWC only, with C and K multiples of 8: then 8 consecutive
// reduction indices (r, s, c .. c + 7) are 8 consecutive halves of one input pixel, 16 bytes that
// one cp.async copies straight into shared memory (a padding pixel copies nothing and writes
// zeros), and each row of the weights (a (R·S·C) × K matrix of halves) is whole 16-byte pieces.
//
// A block of 8 warps computes a BM × BN tile of the output (BM pixels × BN filters), each warp a
// (BM / WARPS_M) × (BN / WARPS_N) piece as 16 × 16 WMMA fragments, stepping through the reduction
// BK at a time. STAGES shared buffers: the copies of the next STAGES - 1 steps are in flight while
// the tensor cores multiply this one. The tile of results goes through shared memory on its way
// out, so that the stores to the output are whole 16-byte pieces of rows of channels. Launch with
// kTensorBlock threads, grid (ceil(N·P·Q / BM), ceil(K / BN)), and
// ConvTensorTile::kSharedBytes of dynamic shared memory.
//
// The lesson's tile is ConvTensorLessonTile; tools/gpu/conv_tensor_sweep.cu times the others on
// the GPU (docs/PERFORMANCE.md has the figures that chose it).
// FIXED_R, FIXED_S, FIXED_C > 0: the filter's size and the channels as compile-time constants
// (a kernel for one layer shape, as libraries keep), so the divisions that place each step's piece
// become multiplies and shifts; 0: any shape, read from the arguments.
template <int BM_, int BN_, int BK_, int WARPS_M_, int STAGES_, int FIXED_R = 0, int FIXED_S = 0,
          int FIXED_C = 0>
struct ConvTensorTile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_;
  static constexpr int kFixedR = FIXED_R, kFixedS = FIXED_S, kFixedC = FIXED_C;
  static constexpr int WARPS_M = WARPS_M_, WARPS_N = 8 / WARPS_M_;
  static constexpr int A_PITCH = BK + 8;  // halves; the 8 extra shift rows across banks
  static constexpr int B_PITCH = BN + 8;
  static constexpr int C_PITCH = BN + 4;  // floats
  static constexpr int A_BYTES = STAGES * BM * A_PITCH * 2;
  static constexpr int B_BYTES = STAGES * BK * B_PITCH * 2;
  static constexpr int C_BYTES = BM * C_PITCH * 4;
  static constexpr int kSharedBytes = (A_BYTES + B_BYTES) > C_BYTES ? (A_BYTES + B_BYTES) : C_BYTES;
};
using ConvTensorLessonTile = ConvTensorTile<128, 64, 32, 4, 3>;

constexpr int kTensorM = ConvTensorLessonTile::BM;  // output pixels per block
constexpr int kTensorN = ConvTensorLessonTile::BN;  // filters per block
constexpr int kTensorK = ConvTensorLessonTile::BK;  // reduction per step
constexpr int kTensorBlock = 256;

template <class Tile, class Trace>
__global__ void __launch_bounds__(kTensorBlock)
    conv_implicit_gemm_fp16(const __half* in, const __half* wg, float* out, int batch, int channels,
                            int height, int width, int filters, int filter_h, int filter_w,
                            int stride, int pad, Trace trace) {
  using namespace nvcuda;
  const Conv d = conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride,
                            pad, /*nhwc=*/1);
  constexpr int BM = Tile::BM, BN = Tile::BN, BK = Tile::BK, STAGES = Tile::STAGES;
  constexpr int A_PITCH = Tile::A_PITCH, B_PITCH = Tile::B_PITCH, C_PITCH = Tile::C_PITCH;
  constexpr int WM = BM / Tile::WARPS_M, WN = BN / Tile::WARPS_N;  // one warp's piece
  constexpr int FM = WM / 16, FN = WN / 16;                        // its 16 × 16 fragments
  // A step's copies: BM rows of BK / 8 pieces of A, BK rows of BN / 8 pieces of B, shared evenly.
  constexpr int A_PIECES_PER_ROW = BK / 8, A_PER_THREAD = BM * BK / 8 / kTensorBlock;
  constexpr int A_ROWS_APART = kTensorBlock / A_PIECES_PER_ROW;
  constexpr int B_PIECES_PER_ROW = BN / 8, B_PER_THREAD = BK * BN / 8 / kTensorBlock;
  static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0, "whole 16 × 16 fragments");
  static_assert(A_PER_THREAD >= 1 && BM * BK / 8 % kTensorBlock == 0, "A's pieces shared evenly");
  static_assert(B_PER_THREAD >= 1 && BK * BN / 8 % kTensorBlock == 0, "B's pieces shared evenly");
  extern __shared__ __align__(128) unsigned char shared[];
  __half* a_tile = reinterpret_cast<__half*>(shared);                  // [STAGES][BM][A_PITCH]
  __half* b_tile = reinterpret_cast<__half*>(shared + Tile::A_BYTES);  // [STAGES][BK][B_PITCH]
  float* c_tile = reinterpret_cast<float*>(shared);                    // [BM][C_PITCH], at the end

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_m = warp / Tile::WARPS_N;  // rows warp_m·WM ..
  const int warp_n = warp % Tile::WARPS_N;  // columns warp_n·WN ..
  const long long rows = static_cast<long long>(d.n) * d.p * d.q;
  const int filter_s = Tile::kFixedS > 0 ? Tile::kFixedS : d.s;
  const int chans = Tile::kFixedC > 0 ? Tile::kFixedC : d.c;
  const int reduction = (Tile::kFixedR > 0 ? Tile::kFixedR : d.r) * filter_s * chans;
  const long long m0 = static_cast<long long>(blockIdx.x) * BM;
  const int n0 = blockIdx.y * BN;

  // A: BM rows × BK / 8 pieces of 8 halves per step. This thread copies piece
  // tid % (BK / 8) of rows tid / (BK / 8), + A_ROWS_APART, ...: the same rows every step, so
  // where each row's pixel lies is worked out once.
  const int piece = tid % A_PIECES_PER_ROW;
  int row_image[A_PER_THREAD], row_y[A_PER_THREAD], row_x[A_PER_THREAD];
#pragma unroll
  for (int i = 0; i < A_PER_THREAD; ++i) {
    const long long m = m0 + tid / A_PIECES_PER_ROW + i * A_ROWS_APART;
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
    const int c = in_reduction ? kk % chans : 0;
    const int rs = in_reduction ? kk / chans : 0;
    const int r = rs / filter_s;
    const int s = rs % filter_s;
#pragma unroll
    for (int i = 0; i < A_PER_THREAD; ++i) {
      const int y = row_y[i] + r;
      const int x = row_x[i] + s;
      const bool inside =
          in_reduction && row_image[i] >= 0 && y >= 0 && y < d.h && x >= 0 && x < d.w;
      const __half* from = inside ? in + conv_input_index(d, row_image[i], c, y, x) : in;
      __half* to =
          a_tile + (buffer * BM + tid / A_PIECES_PER_ROW + i * A_ROWS_APART) * A_PITCH + piece * 8;
      cp_async_16(cp_async_shared_address(reinterpret_cast<float*>(to)),
                  reinterpret_cast<const float*>(from), inside);
    }
    // B: BK rows × BN / 8 pieces of 8 halves.
#pragma unroll
    for (int i = 0; i < B_PER_THREAD; ++i) {
      const int b_piece = tid + i * kTensorBlock;
      const int kr = k0 + b_piece / B_PIECES_PER_ROW;
      const int col = n0 + (b_piece % B_PIECES_PER_ROW) * 8;
      const bool inside = kr < reduction && col < d.k;  // K is a multiple of 8: whole pieces
      const __half* from = inside ? wg + static_cast<long long>(kr) * d.k + col : wg;
      __half* to = b_tile + (buffer * BK + b_piece / B_PIECES_PER_ROW) * B_PITCH +
                   (b_piece % B_PIECES_PER_ROW) * 8;
      cp_async_16(cp_async_shared_address(reinterpret_cast<float*>(to)),
                  reinterpret_cast<const float*>(from), inside);
    }
  };

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; ++i) {
#pragma unroll
    for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
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
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[FM];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[FN];
#pragma unroll
      for (int i = 0; i < FM; ++i) {
        wmma::load_matrix_sync(a[i], a_tile + (buffer * BM + warp_m * WM + i * 16) * A_PITCH + kk,
                               A_PITCH);
      }
#pragma unroll
      for (int j = 0; j < FN; ++j) {
        wmma::load_matrix_sync(b[j], b_tile + (buffer * BK + kk) * B_PITCH + warp_n * WN + j * 16,
                               B_PITCH);
      }
#pragma unroll
      for (int i = 0; i < FM; ++i) {
#pragma unroll
        for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
      }
    }
  }
  cp_async_wait<0>();  // only empty groups are left; none may land in what comes next
  __syncthreads();     // everyone is done multiplying: the results may reuse the input buffers

  // The results through shared memory (the input buffers are no longer needed), then out in rows
  // of channels, 4 at a time: thread t writes columns 4 (t % (BN / 4)) .. + 3 of rows
  // t / (BN / 4), + kTensorBlock / (BN / 4), ...
#pragma unroll
  for (int i = 0; i < FM; ++i) {
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      wmma::store_matrix_sync(c_tile + (warp_m * WM + i * 16) * C_PITCH + warp_n * WN + j * 16,
                              acc[i][j], C_PITCH, wmma::mem_row_major);
    }
  }
  __syncthreads();
  constexpr int QUADS = BN / 4;
  const int quad = tid % QUADS;
  const int col = n0 + quad * 4;
  for (int row = tid / QUADS; row < BM; row += kTensorBlock / QUADS) {
    const long long m = m0 + row;
    if (m >= rows || col >= d.k) continue;
    // NHWC: output pixel m's channels are contiguous, at m · K; K is a multiple of 8, so four
    // channels from a multiple of 4 are one aligned 16-byte store, all inside the row.
    const long long o = m * d.k + col;
    const float4 value = *reinterpret_cast<const float4*>(c_tile + row * C_PITCH + quad * 4);
    *reinterpret_cast<float4*>(out + o) = value;
    for (int j = 0; j < 4; ++j) trace.wrote(static_cast<unsigned long long>(o + j));
  }
}
