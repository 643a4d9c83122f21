// A candidate for lesson 11's tensor-core rung, measured and not adopted (tools/gpu/
// conv_tensor_sweep.cu runs it): the implicit GEMM on tensor cores with the input's halo and all
// the weights in shared memory. FP16 inputs, FP32 accumulation and output, NHWC.
//
// What it measured (H100, 2026-12-07, Nsight Compute with its fixed clocks, the ResNet layer):
// 67.33 us against the lesson's kernel's 67.39 us, no gain. Where it went: one block of 8 warps
// per SM (its 171 KiB of shared memory), so 2 warps per scheduler, stalled on shared-memory
// results (short scoreboard, 37 % of the cycles between issues) and on the tensor instructions'
// fixed latency (31 %); L2 throughput fell from 50 % to 17 % as intended, but L2 was not the
// limit. The lesson's kernel runs 3 blocks per SM (37.5 % occupancy). With the filter, channels
// and stride fixed at compile time (3 × 3 × 64, stride 1) the whole reduction unrolls and the next
// fragments load while the tensor cores work: 0.0466 ms against the lesson's 0.0589 ms (1.265×,
// H100, 23:05 UTC, timed by the sweep without Nsight Compute). That form is the candidate for the
// app; the general one is not. Tiles still pad 56-wide rows to 64.
//
// The lesson's form (lessons/11_convolution/kernels/convolution_tensor.cuh) copies, for every
// 32-wide step of the reduction, the 128 × 32 piece of the unfolded matrix it needs: each input
// pixel is copied from L2 once per filter position that covers it, 9 times for a 3 × 3 filter, with
// a barrier per step. Here a block copies the patch of input its output tile reads, halo included,
// once, and reads the nine shifted views of it straight from shared memory: output pixel q of a
// row, at filter position (r, s), is input pixel (q · stride + s) of row (p · stride + r), so 16
// consecutive output pixels are 16 pixels of the patch a fixed distance apart, which is exactly a
// WMMA fragment with that distance as its leading dimension. No copy and no barrier inside the
// reduction.
//
// The weights of a 64-filter slice, all R · S · C rows of them, stay in shared memory for the
// block's life; the block is persistent (one per SM) and walks the output tiles, copying the next
// tile's patch while it multiplies this one. A tile is 8 output rows × 16 output columns of one
// image (128 pixels) × 64 filters; each of the 8 warps computes 2 rows × 32 filters.
//
// Needs NHWC, C a multiple of 16, K a multiple of 8, stride up to 2, and the weights' slice, two
// patches and the result tile within the GPU's shared memory per block (conv_halo_shared_bytes).
constexpr int kHaloTileRows = 8;   // output rows per tile
constexpr int kHaloTileCols = 16;  // output columns per tile: one fragment's 16 pixels
constexpr int kHaloFilters = 64;   // filters per block (grid y walks the rest)
constexpr int kHaloThreads = 256;  // 8 warps
constexpr int kHaloFilterPitch = kHaloFilters + 8;  // halves: rows 144 bytes apart, no conflicts
constexpr int kHaloResultPitch = kHaloFilters + 4;  // floats

// A patch pixel's channels, padded so that every pixel starts on 32 bytes (WMMA's alignment).
__host__ __device__ inline int conv_halo_pixel_pitch(int channels) {
  return channels + 16;
}
__host__ __device__ inline int conv_halo_patch_rows(int stride, int filter_h) {
  return (kHaloTileRows - 1) * stride + filter_h;
}
__host__ __device__ inline int conv_halo_patch_cols(int stride, int filter_w) {
  return (kHaloTileCols - 1) * stride + filter_w;
}
__host__ __device__ inline long long conv_halo_align(long long bytes) {
  return (bytes + 127) / 128 * 128;
}
__host__ __device__ inline long long conv_halo_weight_bytes(int channels, int filter_h,
                                                            int filter_w) {
  return conv_halo_align(2LL * filter_h * filter_w * channels * kHaloFilterPitch);
}
__host__ __device__ inline long long conv_halo_patch_bytes(int channels, int filter_h, int filter_w,
                                                           int stride) {
  return conv_halo_align(2LL * conv_halo_patch_rows(stride, filter_h) *
                         conv_halo_patch_cols(stride, filter_w) * conv_halo_pixel_pitch(channels));
}
// The dynamic shared memory the kernel takes: the weights, two patches, the result tile.
__host__ __device__ inline long long conv_halo_shared_bytes(int channels, int filter_h,
                                                            int filter_w, int stride) {
  return conv_halo_weight_bytes(channels, filter_h, filter_w) +
         2 * conv_halo_patch_bytes(channels, filter_h, filter_w, stride) +
         conv_halo_align(4LL * kHaloTileRows * kHaloTileCols * kHaloResultPitch);
}

// kR, kS, kC, kStride > 0: the filter, channels and stride as compile-time constants, so that the
// whole reduction unrolls and the compiler can load the next fragments while the tensor cores work
// on these (0: read from the arguments).
template <int kR, int kS, int kC, int kStride, class Trace>
__global__ void __launch_bounds__(kHaloThreads)
    conv_implicit_gemm_fp16_halo(const __half* in, const __half* wg, float* out, int batch,
                                 int channels, int height, int width, int filters, int filter_h,
                                 int filter_w, int stride, int pad, Trace trace) {
  using namespace nvcuda;
  const Conv d = conv_shape(batch, channels, height, width, filters, filter_h, filter_w, stride,
                            pad, /*nhwc=*/1);
  extern __shared__ __align__(128) unsigned char shared[];
  const int R = kR > 0 ? kR : d.r, S = kS > 0 ? kS : d.s, C = kC > 0 ? kC : d.c;
  const int hop = kStride > 0 ? kStride : d.stride;  // the stride
  const int pixel_pitch = conv_halo_pixel_pitch(C);
  const int patch_rows = conv_halo_patch_rows(hop, R);
  const int patch_cols = conv_halo_patch_cols(hop, S);
  const long long weight_bytes = conv_halo_weight_bytes(C, R, S);
  const long long patch_bytes = conv_halo_patch_bytes(C, R, S, hop);
  __half* weights = reinterpret_cast<__half*>(shared);  // [r·s·c][kHaloFilterPitch]
  // Two patches, one after the other: patch b starts patch_halves · b after the first.
  __half* const first_patch = reinterpret_cast<__half*>(shared + weight_bytes);
  const long long patch_halves = patch_bytes / 2;
  float* result = reinterpret_cast<float*>(shared + weight_bytes + 2 * patch_bytes);

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_rows = warp / 2;  // output rows 2 · warp_rows, + 1 of the tile
  const int warp_n = warp % 2;     // filters 32 · warp_n ..
  const int n0 = blockIdx.y * kHaloFilters;
  const int reduction = R * S * C;

  // The weights' slice, once: reduction rows × 64 filters, 8 pieces of 8 halves a row.
  for (int piece = tid; piece < reduction * (kHaloFilters / 8); piece += kHaloThreads) {
    const int row = piece / (kHaloFilters / 8), col = (piece % (kHaloFilters / 8)) * 8;
    const bool inside = n0 + col < d.k;  // K is a multiple of 8: whole pieces
    const __half* from = inside ? wg + static_cast<long long>(row) * d.k + n0 + col : wg;
    cp_async_16(
        cp_async_shared_address(reinterpret_cast<float*>(weights + row * kHaloFilterPitch + col)),
        reinterpret_cast<const float*>(from), inside);
  }

  const int tile_rows = (d.p + kHaloTileRows - 1) / kHaloTileRows;
  const int tile_cols = (d.q + kHaloTileCols - 1) / kHaloTileCols;
  const long long tiles = static_cast<long long>(d.n) * tile_rows * tile_cols;
  // Tile t: image t / (tile_rows · tile_cols), then its rows of tiles, then columns.
  auto tile_origin = [&](long long t, int& image, int& p0, int& q0) {
    image = static_cast<int>(t / (tile_rows * tile_cols));
    const int rest = static_cast<int>(t % (tile_rows * tile_cols));
    p0 = (rest / tile_cols) * kHaloTileRows;
    q0 = (rest % tile_cols) * kHaloTileCols;
  };
  // The patch of input tile t reads, halo included; pixels outside the image are zeros.
  auto load_patch = [&](long long t, __half* patch) {
    int image, p0, q0;
    tile_origin(t, image, p0, q0);
    const int y0 = p0 * d.stride - d.pad, x0 = q0 * d.stride - d.pad;
    const int pieces_per_pixel = d.c / 8;
    const int pieces = patch_rows * patch_cols * pieces_per_pixel;
    for (int piece = tid; piece < pieces; piece += kHaloThreads) {
      const int pixel = piece / pieces_per_pixel, c = (piece % pieces_per_pixel) * 8;
      const int y = y0 + pixel / patch_cols, x = x0 + pixel % patch_cols;
      const bool inside = y >= 0 && y < d.h && x >= 0 && x < d.w;
      const __half* from = inside ? in + conv_input_index(d, image, c, y, x) : in;
      cp_async_16(
          cp_async_shared_address(reinterpret_cast<float*>(patch + pixel * pixel_pitch + c)),
          reinterpret_cast<const float*>(from), inside);
    }
  };

  long long t = blockIdx.x;
  if (t < tiles) load_patch(t, first_patch);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();  // the weights and the first patch are in
  int buffer = 0;
  for (; t < tiles; t += gridDim.x) {
    // The next tile's patch is in flight while this one is multiplied out.
    if (t + gridDim.x < tiles) load_patch(t + gridDim.x, first_patch + (buffer ^ 1) * patch_halves);
    cp_async_commit();

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
    }
    const __half* patch = first_patch + buffer * patch_halves;
    // Output row (2 · warp_rows + i) of the tile, at filter position (r, s), reads patch row
    // (2 · warp_rows + i) · stride + r from column s, every stride-th pixel: the leading dimension.
    const int a_leading = pixel_pitch * hop;
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const __half* a_base[2];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          a_base[i] = patch + ((2 * warp_rows + i) * hop + r) * patch_cols * pixel_pitch +
                      s * pixel_pitch;
        }
        const __half* b_base = weights + ((r * S + s) * C) * kHaloFilterPitch + warp_n * 32;
#pragma unroll
        for (int c0 = 0; c0 < C; c0 += 16) {
          wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
          wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
#pragma unroll
          for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], a_base[i] + c0, a_leading);
#pragma unroll
          for (int j = 0; j < 2; ++j) {
            wmma::load_matrix_sync(b[j], b_base + c0 * kHaloFilterPitch + j * 16, kHaloFilterPitch);
          }
#pragma unroll
          for (int i = 0; i < 2; ++i) {
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
          }
        }
      }
    }

    // Out through shared memory, 16-byte stores of 4 channels: result row m is tile pixel
    // (m / 16, m % 16).
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        wmma::store_matrix_sync(
            result + ((2 * warp_rows + i) * 16) * kHaloResultPitch + warp_n * 32 + j * 16,
            acc[i][j], kHaloResultPitch, wmma::mem_row_major);
      }
    }
    __syncthreads();  // the whole result tile is in shared memory
    int image, p0, q0;
    tile_origin(t, image, p0, q0);
    constexpr int kQuads = kHaloFilters / 4;
    const int quad = tid % kQuads;
    const int col = n0 + quad * 4;
    for (int m = tid / kQuads; m < kHaloTileRows * kHaloTileCols; m += kHaloThreads / kQuads) {
      const int p = p0 + m / kHaloTileCols, q = q0 + m % kHaloTileCols;
      if (p >= d.p || q >= d.q || col >= d.k) continue;
      // NHWC: a pixel's channels are contiguous; K a multiple of 8 keeps 4 of them whole.
      const long long o = conv_output_index(d, image, col, p, q);
      *reinterpret_cast<float4*>(out + o) =
          *reinterpret_cast<const float4*>(result + m * kHaloResultPitch + quad * 4);
      for (int j = 0; j < 4; ++j) trace.wrote(static_cast<unsigned long long>(o + j));
    }
    cp_async_wait<0>();
    // The next patch is in, and everyone is done with this patch and the result tile.
    __syncthreads();
    buffer ^= 1;
  }
}
