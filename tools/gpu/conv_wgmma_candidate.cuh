// A candidate for lesson 11's tensor rung on Hopper (sm_90a only), timed by tools/gpu/
// conv_tensor_sweep.cu and not yet in the app: the resident form of lessons/11_convolution/
// kernels/convolution_resident.cuh with wgmma, the warpgroup instruction of lesson 4's rung 13,
// instead of WMMA.
//
// Where it stands (H100, 2026-12-08 01:11 UTC, the sweep): right against float64 on the ResNet
// layer and on odd shapes (136 filters in three slices, no padding, a 3 × 3 image), memcheck and
// racecheck clean, 0.0501 ms against the WMMA resident form's 0.0470 — with a weight transpose of
// 8 scalar loads per piece that costs several microseconds per block (the form's time on a
// 3-image layer was 17–21 µs against the WMMA form's 11–13). This version loads the weights 16
// bytes at a time. A version that also stored one tile while the other's wgmmas ran made ptxas
// serialize them (C7520: "program dependence on compiler-inserted WG.AR in divergent path"), so
// here every warpgroup issues both tiles' wgmmas and stores after one wait. Neither has run on a
// GPU yet (no device was lent for the rest of that session). It goes into the app (an SM90A source
// of lesson 11) once the sweep shows it right and faster. FP16 inputs, FP32
// accumulation and output, NHWC, stride 1, 3 × 3 filters over 64 channels (conv_wgmma_applies
// below says where it would apply).
//
// Same idea as the resident form: the image padded and flattened so that each filter position's
// inputs are the outputs' own pixels shifted by r·L + s, the weights' 64-filter slice resident in
// shared memory, one block per multiprocessor walking its share of the output in chunks while the
// next chunk's input is copied. What changes is who reads shared memory. With WMMA each warp loads
// its fragments into registers, 6 loads for 8 multiplies; here a warpgroup (4 warps) hands the
// tensor cores two descriptors and they read A and B from shared memory themselves: one
// m64n64k16 instruction multiplies 64 output pixels by 16 channels of 64 filters.
//
// The layouts are wgmma's "no swizzle" ones, both K-major (the reduction contiguous), built from
// 8 × 8 core matrices of 16-byte rows, 128 contiguous bytes each:
// - The patch (A) is stored channel group by channel group: 16 bytes = 8 channels of pixel j of
//   group g at (g · pixels + j) · 16. 8 consecutive pixels of a group are a core matrix wherever
//   they start, so a descriptor may start at any pixel: the shifted view costs nothing. Its
//   "leading" offset (to the next 8 channels, along K) is pixels · 16 bytes, its "stride" offset
//   (to the next 8 pixels, along M) 128 bytes.
// - The weights (B) as [filter position][channel group][filter][8 channels]: the host's (R·S·C) × K
//   matrix is transposed on the way in (once per block; a warp reads 32 filters of one row at a
//   time). Leading offset 64 · 16 bytes (the next 8 channels), stride 128 (the next 8 filters).
//
// A chunk is 4 tiles of 64 pixels; warpgroup g takes tiles g and g + 2 (the last, partial chunk
// gives each warpgroup at most one more than the other), issues its 36 or 72 wgmmas (9 filter
// positions × 4 steps of 16 channels, per tile) without waiting, then waits once. Results go
// straight from the accumulators to global memory: in wgmma's output layout a thread holds pairs
// of adjacent filters, and 4 lanes hold 32 contiguous bytes of one pixel's row.
//
// Launch: kConvWgmmaThreads threads, grid kernels::conv_resident_grid (a chunk is 256 pixels in
// both forms), dynamic shared memory conv_wgmma_shared_bytes; `tiles` = conv_wgmma_tiles,
// `patch_pixels` = conv_wgmma_patch_pixels, computed by the host. Compiled for sm_90a alone.

// The resident form on Hopper's wgmma (lessons/11_convolution/kernels/convolution_wgmma.cuh, sm_90a
// alone): the same shapes as conv_resident_applies on a GPU of compute capability 9.0. Two
// warpgroups; a chunk is 4 tiles of 64 pixels; the patch is stored without padding (wgmma's
// unswizzled layout), the weights transposed to K-major.
inline constexpr int kConvWgmmaThreads = 256;
inline constexpr int kConvWgmmaChunkTiles = 4;
inline constexpr unsigned kConvWgmmaWeightBytes = 2u * kernels::kResidentR * kernels::kResidentS *
                                                  kernels::kResidentC * kernels::kResidentFilters;
// One chunk's input, in pixels: its 256 and the rows and columns the filter reaches beyond them.
inline int conv_wgmma_patch_pixels(const kernels::ConvDims& d) {
  return kConvWgmmaChunkTiles * 64 + (kernels::kResidentR - 1) * (d.w + 2 * d.pad) +
         (kernels::kResidentS - 1);
}
inline long long conv_wgmma_shared_bytes(const kernels::ConvDims& d) {
  return kConvWgmmaWeightBytes + 2LL * conv_wgmma_patch_pixels(d) * kernels::kResidentC * 2;
}
// Tiles of 64 pixels of the flattened output, padding included.
inline long long conv_wgmma_tiles(const kernels::ConvDims& d) {
  return (kernels::conv_resident_rows(d) * 16 + 63) / 64;
}
inline bool conv_wgmma_applies(const kernels::ConvDims& d,
                               unsigned long long shared_per_block_optin, int compute_capability) {
  return compute_capability == 90 && d.nhwc && d.stride == 1 && d.r == kernels::kResidentR &&
         d.s == kernels::kResidentS && d.c == kernels::kResidentC && d.k % 8 == 0 && d.p > 0 &&
         d.q > 0 &&
         static_cast<unsigned long long>(conv_wgmma_shared_bytes(d)) <= shared_per_block_optin;
}
// Its grid is conv_resident_grid's: a chunk is 256 pixels in both forms.
static_assert(kConvWgmmaChunkTiles * 64 ==
                  kernels::kResidentWarps * kernels::kResidentRowsPerWarp * 16,
              "the two resident forms share out the output in the same chunks");

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define THREADLAB_CONV_WGMMA_DEVICE 1
#endif

#if defined(THREADLAB_CONV_WGMMA_DEVICE)
// A shared-memory matrix descriptor without swizzle: start address, leading and stride byte
// offsets, in units of 16 bytes (the layout bits 62-63 stay 0).
__device__ __forceinline__ unsigned long long conv_wgmma_descriptor(unsigned address,
                                                                    unsigned leading,
                                                                    unsigned stride) {
  return static_cast<unsigned long long>((address & 0x3FFFF) >> 4) |
         static_cast<unsigned long long>(leading >> 4) << 16 |
         static_cast<unsigned long long>(stride >> 4) << 32;
}

// d = A · B (or d += with `accumulate`) for one warpgroup's 64 × 64 piece and 16 channels, A and B
// both K-major (the last two immediates 0).
__device__ __forceinline__ void conv_wgmma_m64n64k16(float (&d)[32], unsigned long long a,
                                                     unsigned long long b, int accumulate) {
  asm volatile(
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, accumulate, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(a), "l"(b), "r"(accumulate));
}
#endif

template <class Trace>
__global__ void __launch_bounds__(kConvWgmmaThreads, 1)
    conv_implicit_gemm_fp16_wgmma(const __half* in, const __half* wg, float* out, int batch,
                                  int height, int width, int filters, int pad, long long tiles,
                                  int patch_pixels, Trace trace) {
#if defined(THREADLAB_CONV_WGMMA_DEVICE)
  constexpr int kR = kernels::kResidentR, kS = kernels::kResidentS, kC = kernels::kResidentC;
  constexpr int kGroups = kC / 8;  // 16-byte channel groups per pixel
  constexpr int kFilters = kernels::kResidentFilters;
  constexpr int kThreads = kConvWgmmaThreads;
  constexpr int kTile = 64;                          // pixels per wgmma
  constexpr int kChunkTiles = kConvWgmmaChunkTiles;  // 2 per warpgroup
  constexpr unsigned kWeightBytes = kConvWgmmaWeightBytes;
  static_assert(kThreads == 256 && kChunkTiles == 4, "two warpgroups, two tiles each");

  const int row_pitch = width + 2 * pad;  // L
  const int padded_height = height + 2 * pad;
  const int out_h = padded_height - kR + 1, out_w = row_pitch - kS + 1;
  const long long image_pixels = static_cast<long long>(padded_height) * row_pitch;
  const unsigned patch_bytes = static_cast<unsigned>(patch_pixels) * kC * 2;  // 128-byte multiple

  extern __shared__ __align__(128) unsigned char shared[];
  const unsigned shared_base = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  const int tid = threadIdx.x, group = tid / 128, warp = tid % 128 / 32, lane = tid % 32;
  const int n0 = blockIdx.y * kFilters;

  // The weights' slice, transposed once: the host's (R·S·C) × K matrix arrives 16 bytes (8
  // filters of one row) at a time, all of a thread's pieces in flight together, and each half goes
  // to its filter's 16-byte row: piece (rs, g, f) holds channels 8g .. 8g + 7 of filter n0 + f.
  {
    constexpr int kRowPieces = kFilters / 8;
    constexpr int kPieces = kR * kS * kC * kRowPieces;
    static_assert(kPieces % kThreads == 0, "the weights' pieces shared evenly");
    uint4 pieces[kPieces / kThreads];
#pragma unroll
    for (int i = 0; i < kPieces / kThreads; ++i) {
      const int piece = tid + i * kThreads, row = piece / kRowPieces;
      const int f0 = (piece % kRowPieces) * 8;
      // K is a multiple of 8: a piece is wholly inside or wholly past the last filter.
      pieces[i] = n0 + f0 < filters ? *reinterpret_cast<const uint4*>(
                                          wg + static_cast<long long>(row) * filters + n0 + f0)
                                    : make_uint4(0, 0, 0, 0);
    }
    __half* const transposed = reinterpret_cast<__half*>(shared);
#pragma unroll
    for (int i = 0; i < kPieces / kThreads; ++i) {
      const int piece = tid + i * kThreads, row = piece / kRowPieces;
      const int f0 = (piece % kRowPieces) * 8, rs = row / kC, c = row % kC;
      const __half* const eight = reinterpret_cast<const __half*>(&pieces[i]);
      __half* const to = transposed + ((rs * kGroups + c / 8) * kFilters + f0) * 8 + c % 8;
#pragma unroll
      for (int e = 0; e < 8; ++e) to[e * 8] = eight[e];  // filter f0 + e's row of 8 channels
    }
  }

  // The input the chunk starting at tile `first` reads: patch_pixels pixels of the padded image
  // from pixel 64 · first, zeros where the image has none. Thread t copies group t % 8 of every
  // 32nd pixel from t / 8 (a pixel's 128 bytes by 8 neighbouring threads), stepping through the
  // padded rows and images instead of dividing for each pixel.
  auto load_patch = [&](long long first, unsigned patch) {
    constexpr int kStep = kThreads / kGroups;
    const int g = tid % kGroups;
    int j = tid / kGroups;
    const long long start = first * kTile + j;
    int n = static_cast<int>(start / image_pixels);
    const int rest = static_cast<int>(start % image_pixels);
    int y = rest / row_pitch - pad, x = rest % row_pitch - pad;
    for (; j < patch_pixels; j += kStep) {
      const bool inside = n < batch && y >= 0 && y < height && x >= 0 && x < width;
      const __half* from =
          inside ? in + ((static_cast<long long>(n) * height + y) * width + x) * kC + g * 8 : in;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                       patch + (static_cast<unsigned>(g) * patch_pixels + j) * 16),
                   "l"(from), "r"(inside ? 16 : 0)
                   : "memory");
      x += kStep;
      while (x >= row_pitch - pad) {
        x -= row_pitch;
        if (++y == padded_height - pad) {
          y = -pad;
          ++n;
        }
      }
    }
  };

  const long long begin = tiles * blockIdx.x / gridDim.x;
  const long long end = tiles * (blockIdx.x + 1) / gridDim.x;
  const unsigned first_patch = shared_base + kWeightBytes;
  if (begin < end) load_patch(begin, first_patch);
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  // The weights were written by ordinary stores and the patch by cp.async, both through the
  // generic proxy; wgmma reads through the async proxy, which must be shown them first.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();

  int buffer = 0;
  unsigned int pass = 0;
  for (long long first = begin; first < end; first += kChunkTiles, ++pass) {
    if (first + kChunkTiles < end) {
      load_patch(first + kChunkTiles, first_patch + (buffer ^ 1) * patch_bytes);
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    const unsigned patch = first_patch + buffer * patch_bytes;
    const int chunk_tiles = static_cast<int>(end - first < kChunkTiles ? end - first : kChunkTiles);
    // Warpgroup g: tiles g and g + 2 of the chunk, those that exist.
    const int mine = chunk_tiles > group + 2 ? 2 : chunk_tiles > group ? 1 : 0;

    // Tile t's pixels: 16 · warp + lane / 4 + 8h of tile group + 2t, filters 8j + 2 · (lane % 4)
    // and + 1 of the slice in d[t][4j + 2h] and d[t][4j + 2h + 1] (wgmma's output layout).
    auto store_tile = [&](int t, const float(&d)[32]) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const long long g = (first + group + 2 * t) * kTile + warp * 16 + lane / 4 + 8 * h;
        const int n = static_cast<int>(g / image_pixels);
        const int rest = static_cast<int>(g % image_pixels);
        const int p = rest / row_pitch, q = rest % row_pitch;
        if (n >= batch || p >= out_h || q >= out_w) continue;  // the padding's own outputs
        const long long o = ((static_cast<long long>(n) * out_h + p) * out_w + q) * filters;
#pragma unroll
        for (int j = 0; j < kFilters / 8; ++j) {
          const int col = n0 + 8 * j + 2 * (lane % 4);
          if (col >= filters) continue;  // K is a multiple of 8: both of the pair or neither
          *reinterpret_cast<float2*>(out + o + col) =
              make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
          trace.wrote(static_cast<unsigned long long>(o + col), pass);
          trace.wrote(static_cast<unsigned long long>(o + col + 1), pass);
        }
      }
    };
    // Tile t's 36 wgmmas (9 filter positions × 4 steps of 16 channels), committed as one group.
    auto multiply_tile = [&](int t, float(&d)[32]) {
#pragma unroll
      for (int r = 0; r < kR; ++r) {
#pragma unroll
        for (int s = 0; s < kS; ++s) {
          const unsigned pixel = static_cast<unsigned>((group + 2 * t) * kTile + r * row_pitch + s);
#pragma unroll
          for (int k = 0; k < kC / 16; ++k) {
            const unsigned long long b = conv_wgmma_descriptor(
                shared_base + ((r * kS + s) * kGroups + 2 * k) * kFilters * 16, kFilters * 16, 128);
            const unsigned long long a = conv_wgmma_descriptor(
                patch + (2 * k * static_cast<unsigned>(patch_pixels) + pixel) * 16,
                static_cast<unsigned>(patch_pixels) * 16, 128);
            conv_wgmma_m64n64k16(d, a, b, r > 0 || s > 0 || k > 0);
          }
        }
      }
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    };

    // Both tiles' wgmmas are issued whatever this warpgroup's share (a tile past the chunk's end
    // multiplies input that is there, and nothing of it is stored), and the stores wait for all of
    // them: a branch between wgmmas, or a store between their waits that the compiler cannot prove
    // uniform, makes ptxas serialize them (its warning C7520).
    float d0[32], d1[32];
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    multiply_tile(0, d0);
    multiply_tile(1, d1);
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    if (mine > 0) store_tile(0, d0);
    if (mine > 1) store_tile(1, d1);

    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    // The next chunk's input is in and visible to wgmma, and every warpgroup's wgmmas are done
    // with this one's.
    __syncthreads();
    buffer ^= 1;
  }
#else
  (void)in, (void)wg, (void)out, (void)batch, (void)height, (void)width, (void)filters, (void)pad,
      (void)tiles, (void)patch_pixels, (void)trace;
#endif
}
