// Lesson 11: a 2D convolution over a batch of multi-channel images, as a ladder of kernels.
//
//   out[n][k][p][q] = sum over c < C, r < R, s < S of
//                     in[n][c][p * stride - pad + r][q * stride - pad + s] * w[k][c][r][s]
//
// where a pixel outside the image (in the padding) counts as 0. The same source runs on the GPU
// and on ThreadLab's CPU emulator, and the lesson shows it exactly as it is here. Every kernel
// takes the shape as plain ints (n, c, h, w: the input; k, r, s: the filters; stride, pad; nhwc:
// the layout) and gathers them into a Conv; `d.nhwc` picks where a pixel's channels live, and the
// two index functions below are the only place that knows.
//
// `trace.wrote(i)` records which thread wrote output element i (at its index in memory) in the
// drawn kernel and compiles to nothing in the timed one (kernels/trace.cuh).

// The kernels' fixed shapes (the lesson plans with the same numbers, convolution_shapes.hpp; the
// launch description checks that they agree).
constexpr int kTile = 16;      // the tiled kernel: a kTile × kTile patch of outputs per block
constexpr int kMaxFilter = 7;  // its shared patch is sized for filters up to this
constexpr int kMaxStride = 2;  // and strides up to this
constexpr int kPatchSpan = (kTile - 1) * kMaxStride + kMaxFilter;
constexpr int kGemmM = 128;  // the implicit GEMM: output pixels per block
constexpr int kGemmN = 64;   // filters per block
constexpr int kGemmK = 8;    // reduction per step
constexpr int kGemmThreads = 128;

struct Conv {
  int n, c, h, w;  // batch, channels, height, width of the input
  int k, r, s;     // filters and their height and width
  int stride, pad;
  int p, q;  // the output's height and width
  int nhwc;  // 0: NCHW, 1: NHWC
};

__host__ __device__ inline Conv conv_shape(int n, int c, int h, int w, int k, int r, int s,
                                           int stride, int pad, int nhwc) {
  return {n,
          c,
          h,
          w,
          k,
          r,
          s,
          stride,
          pad,
          (h + 2 * pad - r) / stride + 1,
          (w + 2 * pad - s) / stride + 1,
          nhwc};
}

__host__ __device__ inline long long conv_input_index(const Conv& d, int n, int c, int y, int x) {
  return d.nhwc ? ((static_cast<long long>(n) * d.h + y) * d.w + x) * d.c + c
                : ((static_cast<long long>(n) * d.c + c) * d.h + y) * d.w + x;
}
__host__ __device__ inline long long conv_output_index(const Conv& d, int n, int k, int p, int q) {
  return d.nhwc ? ((static_cast<long long>(n) * d.p + p) * d.q + q) * d.k + k
                : ((static_cast<long long>(n) * d.k + k) * d.p + p) * d.q + q;
}

// ---------------------------------------------------------------------------------------------
// 1. Direct: one thread per output element, numbered in the output's own memory order, so that
// neighbouring threads write neighbouring addresses whichever the layout. Each thread walks its
// C × R × S window straight from global memory: every input pixel is read by up to
// K × (R / stride) × (S / stride) threads, and every weight by P × Q × N of them. The weights are
// w[k][c][r][s] (KCRS) in both layouts.
template <class Trace>
__global__ void conv_direct(const float* in, const float* weights, float* out, int batch,
                            int channels, int height, int width, int filters, int filter_h,
                            int filter_w, int stride, int pad, int nhwc, Trace trace) {
  const Conv d =
      conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride, pad, nhwc);
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long total = static_cast<long long>(d.n) * d.k * d.p * d.q;
  if (i >= total) return;
  // Undo the output's numbering: NCHW counts q fastest, NHWC counts k fastest.
  int n, k, p, q;
  if (d.nhwc) {
    k = static_cast<int>(i % d.k);
    long long rest = i / d.k;
    q = static_cast<int>(rest % d.q);
    rest /= d.q;
    p = static_cast<int>(rest % d.p);
    n = static_cast<int>(rest / d.p);
  } else {
    q = static_cast<int>(i % d.q);
    long long rest = i / d.q;
    p = static_cast<int>(rest % d.p);
    rest /= d.p;
    k = static_cast<int>(rest % d.k);
    n = static_cast<int>(rest / d.k);
  }
  float sum = 0.0f;
  for (int c = 0; c < d.c; ++c) {
    for (int r = 0; r < d.r; ++r) {
      const int y = p * d.stride - d.pad + r;
      if (y < 0 || y >= d.h) continue;  // a padding row: adds 0
      for (int s = 0; s < d.s; ++s) {
        const int x = q * d.stride - d.pad + s;
        if (x < 0 || x >= d.w) continue;
        sum += in[conv_input_index(d, n, c, y, x)] * weights[((k * d.c + c) * d.r + r) * d.s + s];
      }
    }
  }
  out[i] = sum;
  trace.wrote(static_cast<unsigned long long>(i));
}

// ---------------------------------------------------------------------------------------------
// 2. Tiled with a halo: the Lab's single-channel exercise grown to channels. A block of
// kTile × kTile threads computes that patch of one output plane (blockIdx.z numbers the
// (image, filter) pairs). For each input channel it copies the patch of input its outputs read, the
// outputs' own pixels and a halo of R - 1 (S - 1) more, into shared memory, and the channel's
// R × S weights beside it; every thread then reads its window from there. A pixel is read from
// global memory once per block and channel instead of once per output that needs it.
// Threads past the right or bottom edge still load and reach both barriers; they only skip the
// store. Launch with kTile × kTile blocks, grid (ceil(Q / TILE), ceil(P / TILE), N × K).
template <class Trace>
__global__ void conv_tiled(const float* in, const float* weights, float* out, int batch,
                           int channels, int height, int width, int filters, int filter_h,
                           int filter_w, int stride, int pad, int nhwc, Trace trace) {
  const Conv d =
      conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride, pad, nhwc);
  __shared__ float patch[kPatchSpan * kPatchSpan];
  __shared__ float filter_tile[kMaxFilter * kMaxFilter];
  const int n = blockIdx.z / d.k;
  const int k = blockIdx.z % d.k;
  const int p = blockIdx.y * kTile + threadIdx.y;
  const int q = blockIdx.x * kTile + threadIdx.x;
  // The input patch of this block: its first pixel and its size, halo included.
  const int y0 = blockIdx.y * kTile * d.stride - d.pad;
  const int x0 = blockIdx.x * kTile * d.stride - d.pad;
  const int rows = (kTile - 1) * d.stride + d.r;
  const int cols = (kTile - 1) * d.stride + d.s;
  const int thread = threadIdx.y * kTile + threadIdx.x;
  float sum = 0.0f;
  for (int c = 0; c < d.c; ++c) {
    for (int at = thread; at < rows * cols; at += kTile * kTile) {
      const int y = y0 + at / cols;
      const int x = x0 + at % cols;
      patch[at] =
          (y >= 0 && y < d.h && x >= 0 && x < d.w) ? in[conv_input_index(d, n, c, y, x)] : 0.0f;
    }
    if (thread < d.r * d.s) filter_tile[thread] = weights[(k * d.c + c) * d.r * d.s + thread];
    __syncthreads();  // the patch and the weights are complete
    for (int r = 0; r < d.r; ++r) {
      for (int s = 0; s < d.s; ++s) {
        sum += patch[(threadIdx.y * d.stride + r) * cols + threadIdx.x * d.stride + s] *
               filter_tile[r * d.s + s];
      }
    }
    __syncthreads();  // everyone is done with this channel: the next may overwrite it
  }
  if (p < d.p && q < d.q) {
    const long long i = conv_output_index(d, n, k, p, q);
    out[i] = sum;
    trace.wrote(static_cast<unsigned long long>(i));
  }
}

// ---------------------------------------------------------------------------------------------
// 3. im2col: unfold every window into a column (a row, for NHWC) of a matrix, so that the
// convolution becomes one matrix product, run by lesson 4's fastest FP32 GEMM. One thread per
// element of the unfolded matrix; a padding pixel becomes a 0. The matrix is C·R·S × P·Q per
// image for NCHW (the images one after another: out_n = W · col_n, K × P·Q, is image n's output),
// and N·P·Q × R·S·C for NHWC (out = col · W', N·P·Q × K, is the NHWC output). It holds every
// input pixel up to R·S / stride² times: this copy is the memory im2col costs.
template <class Trace>
__global__ void conv_im2col(const float* in, float* col, int batch, int channels, int height,
                            int width, int filters, int filter_h, int filter_w, int stride, int pad,
                            int nhwc, Trace trace) {
  const Conv d =
      conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride, pad, nhwc);
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long window = static_cast<long long>(d.c) * d.r * d.s;
  const long long pixels = static_cast<long long>(d.p) * d.q;
  if (i >= window * pixels * d.n) return;
  int n, c, r, s, p, q;
  if (d.nhwc) {  // row (n, p, q), column (r, s, c): channels fastest, as in the input
    c = static_cast<int>(i % d.c);
    long long rest = i / d.c;
    s = static_cast<int>(rest % d.s);
    rest /= d.s;
    r = static_cast<int>(rest % d.r);
    rest /= d.r;
    q = static_cast<int>(rest % d.q);
    rest /= d.q;
    p = static_cast<int>(rest % d.p);
    n = static_cast<int>(rest / d.p);
  } else {  // image n, row (c, r, s), column (p, q)
    q = static_cast<int>(i % d.q);
    long long rest = i / d.q;
    p = static_cast<int>(rest % d.p);
    rest /= d.p;
    s = static_cast<int>(rest % d.s);
    rest /= d.s;
    r = static_cast<int>(rest % d.r);
    rest /= d.r;
    c = static_cast<int>(rest % d.c);
    n = static_cast<int>(rest / d.c);
  }
  const int y = p * d.stride - d.pad + r;
  const int x = q * d.stride - d.pad + s;
  col[i] = (y >= 0 && y < d.h && x >= 0 && x < d.w) ? in[conv_input_index(d, n, c, y, x)] : 0.0f;
  trace.wrote(static_cast<unsigned long long>(i));
}

// ---------------------------------------------------------------------------------------------
// 4. Implicit GEMM (FP32): the product im2col + GEMM computes, without the unfolded matrix. The
// GEMM's rows are the N·P·Q output pixels, its columns the K filters, its reduction the C·R·S
// window; each block copies a kGemmM × kGemmK piece of the *virtual* unfolded matrix
// straight from the input into shared memory (computing each element's pixel as im2col does, a
// padding pixel a 0), and a kGemmK × kGemmN piece of the weights, here a (C·R·S) × K
// matrix `wg`: row (c, r, s) for NCHW, (r, s, c) for NHWC, so that consecutive reduction indices
// are consecutive input addresses. Each thread then keeps an 8 × 8 block of outputs in registers
// (lesson 4's register tiling), and the next tiles are loaded into registers while this one is
// multiplied, two shared buffers so one barrier per step suffices.
// Launch with kGemmThreads threads, grid (ceil(N·P·Q / 128), ceil(K / 64)).
template <class Trace>
__global__ void conv_implicit_gemm(const float* in, const float* wg, float* out, int batch,
                                   int channels, int height, int width, int filters, int filter_h,
                                   int filter_w, int stride, int pad, int nhwc, Trace trace) {
  const Conv d =
      conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride, pad, nhwc);
  constexpr int BM = kGemmM, BN = kGemmN, BK = kGemmK;
  constexpr int A_LOADS = BM * BK / kGemmThreads;  // 8: one reduction index, 8 rows
  constexpr int B_LOADS = BK * BN / kGemmThreads;  // 4
  // Transposed, so that a thread's 8 rows are contiguous; 4 floats of padding per row put the 8
  // reduction indices a warp stores at once in different banks.
  __shared__ float a_tile[2][BK][BM + 4];
  __shared__ float b_tile[2][BK][BN];
  const int tid = threadIdx.x;
  const long long rows = static_cast<long long>(d.n) * d.p * d.q;
  const int reduction = d.c * d.r * d.s;
  const long long m0 = static_cast<long long>(blockIdx.x) * BM;
  const int n0 = blockIdx.y * BN;

  // The rows this thread copies never change: tid / 8 + 16 i. Their pixel's origin is worked out
  // once; the reduction index tid % 8 advances by BK each step.
  const int load_k = tid % BK;
  int row_image[A_LOADS], row_y[A_LOADS], row_x[A_LOADS];
  for (int i = 0; i < A_LOADS; ++i) {
    const long long m = m0 + tid / BK + i * (kGemmThreads / BK);
    if (m < rows) {
      const int q = static_cast<int>(m % d.q);
      const long long rest = m / d.q;
      row_image[i] = static_cast<int>(rest / d.p);
      row_y[i] = static_cast<int>(rest % d.p) * d.stride - d.pad;
      row_x[i] = q * d.stride - d.pad;
    } else {
      row_image[i] = -1;  // past the last pixel: loads 0
      row_y[i] = 0;
      row_x[i] = 0;
    }
  }
  float a_next[A_LOADS];
  float b_next[B_LOADS];
  auto load = [&](int k0) {
    const int kk = k0 + load_k;
    int c = 0, r = 0, s = 0;
    if (kk < reduction) {
      if (d.nhwc) {
        c = kk % d.c;
        const int rs = kk / d.c;
        r = rs / d.s;
        s = rs % d.s;
      } else {
        const int rs = kk % (d.r * d.s);
        c = kk / (d.r * d.s);
        r = rs / d.s;
        s = rs % d.s;
      }
    }
    for (int i = 0; i < A_LOADS; ++i) {
      const int y = row_y[i] + r;
      const int x = row_x[i] + s;
      a_next[i] = (kk < reduction && row_image[i] >= 0 && y >= 0 && y < d.h && x >= 0 && x < d.w)
                      ? in[conv_input_index(d, row_image[i], c, y, x)]
                      : 0.0f;
    }
    for (int i = 0; i < B_LOADS; ++i) {
      const int e = tid + i * kGemmThreads;
      const int kr = k0 + e / BN;
      const int col = n0 + e % BN;
      b_next[i] = (kr < reduction && col < d.k) ? wg[static_cast<long long>(kr) * d.k + col] : 0.0f;
    }
  };
  auto store = [&](int buffer) {
    for (int i = 0; i < A_LOADS; ++i)
      a_tile[buffer][load_k][tid / BK + i * (kGemmThreads / BK)] = a_next[i];
    for (int i = 0; i < B_LOADS; ++i) {
      const int e = tid + i * kGemmThreads;
      b_tile[buffer][e / BN][e % BN] = b_next[i];
    }
  };

  // Thread (tr, tc) owns rows tr·8 .. tr·8 + 7 of the block's tile, and columns tc·4 .. tc·4 + 3
  // and 32 + tc·4 .. 32 + tc·4 + 3: split in two, so that the 8 threads of a row read 32 different
  // banks of b_tile at once.
  const int tr = tid / (BN / 8);
  const int tc = tid % (BN / 8);
  auto column = [&](int j) { return j < 4 ? tc * 4 + j : BN / 2 + tc * 4 + j - 4; };
  float acc[8][8];
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
  }
  load(0);
  store(0);
  __syncthreads();
  const int steps = (reduction + BK - 1) / BK;
  for (int step = 0; step < steps; ++step) {
    const int buffer = step % 2;
    if (step + 1 < steps) load((step + 1) * BK);  // in flight while this step multiplies
    for (int kk = 0; kk < BK; ++kk) {
      float a[8], b[8];
      for (int i = 0; i < 8; ++i) a[i] = a_tile[buffer][kk][tr * 8 + i];
      for (int j = 0; j < 8; ++j) b[j] = b_tile[buffer][kk][column(j)];
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
      }
    }
    // The other buffer was last read in the previous step, before the barrier that ended it.
    if (step + 1 < steps) store(1 - buffer);
    __syncthreads();
  }

  for (int i = 0; i < 8; ++i) {
    const long long m = m0 + tr * 8 + i;
    if (m >= rows) break;
    const int q = static_cast<int>(m % d.q);
    const long long rest = m / d.q;
    const int p = static_cast<int>(rest % d.p);
    const int n = static_cast<int>(rest / d.p);
    for (int j = 0; j < 8; ++j) {
      const int k = n0 + column(j);
      if (k >= d.k) continue;
      const long long o = conv_output_index(d, n, k, p, q);
      out[o] = acc[i][j];
      trace.wrote(static_cast<unsigned long long>(o));
    }
  }
}
