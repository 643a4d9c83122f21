// Lesson 11, rung 5's resident form (GPU only): the implicit GEMM on tensor cores with the weights
// kept in shared memory for the block's whole life and no copy of the unfolded matrix at all.
// FP16 inputs, FP32 accumulation and output, NHWC, stride 1, a filter and channel count fixed at
// compile time (the app instantiates 3 × 3 over 64 channels, the ResNet layer; the host decides
// with kernels::conv_resident_applies and falls back to convolution_tensor.cuh's tile otherwise).
//
// The idea, in the lesson's terms. Pad the image with its zeros for real, W + 2·pad pixels a row
// (call that L), and number the output the same way: output (p, q) of image n is pixel
// n·(H + 2·pad)·L + p·L + q of a flattened array. At filter position (r, s) that output reads the
// padded input at flattened pixel (its own number) + r·L + s. So 16 consecutive outputs read 16
// consecutive input pixels for every (r, s): each of the filter's nine products is a WMMA fragment
// of the padded input shifted by r·L + s, straight from shared memory, with no copy per step and no
// barrier inside the reduction. The price: the outputs at q ≥ Q and p ≥ P (the padding's own
// columns and rows, 2 of 58 on the ResNet layer's rows) are computed and dropped.
//
// A block keeps one 64-filter slice of the weights, all R·S·C rows of it, and owns a contiguous
// range of 16-pixel rows of that flattened output (kernels::conv_resident_rows, split evenly among
// the blocks of one slice, one block per multiprocessor). It walks its range in chunks of
// kWarps × kRowsPerWarp rows, copying the next chunk's input (a contiguous run of the padded image,
// zeros where the image has none) with cp.async while its warps multiply this one. A warp computes
// up to kRowsPerWarp rows × 64 filters; the last, partial chunk shares its rows among all the warps
// so that no warp does more than it must. Results go out through a small per-warp staging tile,
// 32 bytes per lane, the padding's outputs dropped there.
//
// Launch: kWarps·32 threads, grid kernels::conv_resident_grid, dynamic shared memory
// kernels::conv_resident_shared_bytes; `rows` = kernels::conv_resident_rows and `patch_halves`
// = kernels::conv_resident_patch_bytes / 2, both computed by the host once.

// Runs `body` with std::integral_constant<int, m> for the m (1..kMost) equal to `count`; nothing
// for 0. A warp's number of rows picks a fully unrolled body.
template <int kMost, class Body>
__device__ __forceinline__ void conv_resident_with_rows(int count, Body&& body) {
  if (count == kMost) {
    body(std::integral_constant<int, kMost>{});
  } else if constexpr (kMost > 1) {
    conv_resident_with_rows<kMost - 1>(count, body);
  }
}

template <int kR, int kS, int kC, int kWarps, int kRowsPerWarp, class Trace>
__global__ void __launch_bounds__(kWarps * 32, 1)
    conv_implicit_gemm_fp16_resident(const __half* in, const __half* wg, float* out, int batch,
                                     int height, int width, int filters, int pad, long long rows,
                                     long long patch_halves, Trace trace) {
  using namespace nvcuda;
  constexpr int kThreads = kWarps * 32;
  constexpr int kChunkRows = kWarps * kRowsPerWarp;
  constexpr int kChunkPixels = kChunkRows * 16;
  constexpr int kPixelPitch = kernels::kResidentPixelPitch<kC>;
  constexpr int kFilters = kernels::kResidentFilters;
  constexpr int kFilterPitch = kernels::kResidentFilterPitch;
  constexpr int kStagePitch = kernels::kResidentStagePitch;
  constexpr int kPieces = kC / 8;  // 16-byte pieces per pixel
  constexpr long long kWeightBytes = kernels::kResidentWeightBytes<kR, kS, kC>;
  static_assert(kC % 16 == 0 && kThreads % kPieces == 0, "whole fragments, whole pixels per pass");

  const int row_pitch = width + 2 * pad;  // L
  const int padded_height = height + 2 * pad;
  const int out_h = padded_height - kR + 1, out_w = row_pitch - kS + 1;  // P, Q at stride 1
  const long long image_pixels = static_cast<long long>(padded_height) * row_pitch;

  extern __shared__ __align__(128) unsigned char shared[];
  __half* const weights = reinterpret_cast<__half*>(shared);  // [R·S·C][kFilterPitch]
  __half* const first_patch = reinterpret_cast<__half*>(shared + kWeightBytes);
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  // This warp's staging tile, after the two patches.
  float* const stage =
      reinterpret_cast<float*>(shared + kWeightBytes + 4 * patch_halves) + warp * 16 * kStagePitch;
  const int n0 = blockIdx.y * kFilters;

  // The weights' slice, once: R·S·C rows × 64 filters, 8 pieces of 8 halves a row; filters past K
  // are zeros (K is a multiple of 8, so pieces are whole).
  for (int piece = tid; piece < kR * kS * kC * (kFilters / 8); piece += kThreads) {
    const int row = piece / (kFilters / 8), col = (piece % (kFilters / 8)) * 8;
    const bool inside = n0 + col < filters;
    const __half* from = inside ? wg + static_cast<long long>(row) * filters + n0 + col : wg;
    cp_async_16(
        cp_async_shared_address(reinterpret_cast<float*>(weights + row * kFilterPitch + col)),
        reinterpret_cast<const float*>(from), inside);
  }

  // The input that the chunk starting at 16-pixel row `first` reads: a contiguous run of the
  // padded image, kChunkPixels + (R - 1)·L + S - 1 pixels. This thread copies piece tid % kPieces
  // of every (kThreads / kPieces)-th pixel from tid / kPieces, stepping through the padded image's
  // rows and images as it goes instead of dividing for each pixel.
  auto load_patch = [&](long long first, __half* patch) {
    const int pixels = kChunkPixels + (kR - 1) * row_pitch + kS - 1;
    const int part = (tid % kPieces) * 8;
    int j = tid / kPieces;
    const long long g = first * 16 + j;
    int n = static_cast<int>(g / image_pixels);
    const int rest = static_cast<int>(g % image_pixels);
    int y = rest / row_pitch - pad, x = rest % row_pitch - pad;  // in the image's coordinates
    for (; j < pixels; j += kThreads / kPieces) {
      const bool inside = n < batch && y >= 0 && y < height && x >= 0 && x < width;
      const __half* from =
          inside ? in + ((static_cast<long long>(n) * height + y) * width + x) * kC + part : in;
      cp_async_16(cp_async_shared_address(reinterpret_cast<float*>(patch + j * kPixelPitch + part)),
                  reinterpret_cast<const float*>(from), inside);
      x += kThreads / kPieces;
      while (x >= row_pitch - pad) {  // past the padded row: the next row, maybe the next image
        x -= row_pitch;
        if (++y == padded_height - pad) {
          y = -pad;
          ++n;
        }
      }
    }
  };

  const long long begin = rows * blockIdx.x / gridDim.x;
  const long long end = rows * (blockIdx.x + 1) / gridDim.x;
  if (begin < end) load_patch(begin, first_patch);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();  // the weights and the first chunk's input are in

  int buffer = 0;
  unsigned int pass = 0;  // the chunk's number in this block, for the trace
  for (long long first = begin; first < end; first += kChunkRows, ++pass) {
    // The next chunk's input is in flight while this one is multiplied out.
    if (first + kChunkRows < end) {
      load_patch(first + kChunkRows, first_patch + (buffer ^ 1) * patch_halves);
    }
    cp_async_commit();
    const __half* const patch = first_patch + buffer * patch_halves;

    // This chunk's rows among the warps: kRowsPerWarp each when the chunk is whole; the last,
    // partial one gives every warp at most one more than any other.
    const int chunk_rows = static_cast<int>(end - first < kChunkRows ? end - first : kChunkRows);
    const int share = chunk_rows / kWarps, extra = chunk_rows % kWarps;
    const int mine = share + (warp < extra ? 1 : 0);
    const int my_first = warp * share + (warp < extra ? warp : extra);  // within the chunk

    conv_resident_with_rows<kRowsPerWarp>(mine, [&](auto count) {
      constexpr int kM = decltype(count)::value;
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kM][4];
#pragma unroll
      for (int i = 0; i < kM; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
      }
      const __half* const a_rows = patch + my_first * 16 * kPixelPitch;
#pragma unroll
      for (int r = 0; r < kR; ++r) {
#pragma unroll
        for (int s = 0; s < kS; ++s) {
          // The shifted view: this (r, s)'s inputs start r·L + s pixels after the outputs' own.
          const __half* const a_rs = a_rows + (r * row_pitch + s) * kPixelPitch;
          const __half* const b_rs = weights + (r * kS + s) * kC * kFilterPitch;
#pragma unroll
          for (int c0 = 0; c0 < kC; c0 += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[kM];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[4];
#pragma unroll
            for (int i = 0; i < kM; ++i) {
              wmma::load_matrix_sync(a[i], a_rs + i * 16 * kPixelPitch + c0, kPixelPitch);
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) {
              wmma::load_matrix_sync(b[j], b_rs + c0 * kFilterPitch + j * 16, kFilterPitch);
            }
#pragma unroll
            for (int i = 0; i < kM; ++i) {
#pragma unroll
              for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
            }
          }
        }
      }

      // Out: row i's 16 pixels × 16 filters at a time through the staging tile; lane l writes 8
      // filters of pixel l / 2, dropped where the pixel is the padding's.
#pragma unroll
      for (int i = 0; i < kM; ++i) {
        const long long g = (first + my_first + i) * 16 + lane / 2;
        const int n = static_cast<int>(g / image_pixels);
        const int rest = static_cast<int>(g % image_pixels);
        const int p = rest / row_pitch, q = rest % row_pitch;
        const bool kept = n < batch && p < out_h && q < out_w;
        const long long o =
            ((static_cast<long long>(n) * out_h + p) * out_w + q) * filters + n0 + (lane % 2) * 8;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          wmma::store_matrix_sync(stage, acc[i][j], kStagePitch, wmma::mem_row_major);
          __syncwarp();
          if (kept && n0 + j * 16 + (lane % 2) * 8 < filters) {
            const float* from = stage + (lane / 2) * kStagePitch + (lane % 2) * 8;
            *reinterpret_cast<float4*>(out + o + j * 16) = *reinterpret_cast<const float4*>(from);
            *reinterpret_cast<float4*>(out + o + j * 16 + 4) =
                *reinterpret_cast<const float4*>(from + 4);
            for (int e = 0; e < 8; ++e) {
              trace.wrote(static_cast<unsigned long long>(o + j * 16 + e), pass);
            }
          }
          __syncwarp();  // the tile is read before the next fragment overwrites it
        }
      }
    });

    cp_async_wait<0>();
    // The next chunk's input is in, and every warp is done with this one's.
    __syncthreads();
    buffer ^= 1;
  }
}
