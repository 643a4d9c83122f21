#pragma once
// The shape of one convolution, as the kernels take it (lessons/11_convolution/kernels/
// convolution.cuh) and the model plans with it (lessons/11_convolution/convolution.hpp). Plain C++:
// no CUDA here, so the lesson's host code includes it too.

namespace tl::kernels {

// A batch of N images of C channels, H × W pixels, filtered by K filters of C × R × S weights,
// moved `stride` pixels at a time over the image padded with `pad` zeros on every side; the output
// is N × K × P × Q. `nhwc` picks the activations' layout (input and output): 0 is NCHW (a channel's
// H × W plane contiguous, PyTorch's default), 1 is NHWC (a pixel's C channels contiguous,
// TensorFlow's default and what tensor cores prefer). Plain ints: the struct is a kernel argument.
struct ConvDims {
  int n, c, h, w;
  int k, r, s;
  int stride, pad;
  int p, q;
  int nhwc;
};

// The tiled rung: a TILE × TILE block of threads computes a TILE × TILE patch of one output plane,
// staging the input patch and its halo in shared memory one channel at a time. The shared array is
// sized for the largest filter and stride the lesson allows.
inline constexpr int kConvTile = 16;
inline constexpr int kConvMaxFilter = 7;
inline constexpr int kConvMaxStride = 2;
inline constexpr int kConvTileSpan = (kConvTile - 1) * kConvMaxStride + kConvMaxFilter;

// The FP32 implicit-GEMM rung: a block of 128 threads computes a 128 × 64 tile of the GEMM's output
// (128 output pixels × 64 output channels), 8 × 8 per thread, walking the reduction 8 at a time.
inline constexpr int kIgemmTileM = 128;
inline constexpr int kIgemmTileN = 64;
inline constexpr int kIgemmTileK = 8;
inline constexpr int kIgemmThreads = 128;

// The FP16 tensor-core rung (GPU only): 256 threads (8 warps, 4 × 2), a 128 × 64 tile, 32 of the
// reduction per step, inputs copied in 16-byte pieces of 8 channels: NHWC, C and K multiples of 8.
inline constexpr int kTensorTileM = 128;
inline constexpr int kTensorTileN = 64;
inline constexpr int kTensorTileK = 32;
inline constexpr int kTensorThreads = 256;
inline constexpr int kTensorChannelMultiple = 8;
inline constexpr int kTensorMinCapability = 80;

// The tensor rung's resident form (GPU only,
// lessons/11_convolution/kernels/convolution_resident.cuh), which the app launches instead where it
// applies (conv_resident_applies): 3 × 3 filters over 64 channels at stride 1, NHWC, K a multiple
// of 8, on a GPU that gives a block the shared memory below (Hopper and the data-centre Blackwells:
// 227 KiB). One block per multiprocessor keeps a 64-filter slice of the weights in shared memory
// for its whole life and walks its share of the output in chunks of kResidentWarps ×
// kResidentRowsPerWarp rows of 16 pixels, copying each chunk's input (a contiguous run of the
// zero-padded image, see the kernel) while it multiplies the last.
inline constexpr int kResidentWarps = 8;
inline constexpr int kResidentRowsPerWarp = 2;  // 16-pixel rows of the output per warp per chunk
inline constexpr int kResidentThreads = kResidentWarps * 32;
inline constexpr int kResidentFilters = 64;  // per block; grid y walks the rest
inline constexpr int kResidentFilterPitch = kResidentFilters + 8;  // halves: no bank conflicts
inline constexpr int kResidentStagePitch = 16 + 4;  // floats, a warp's output staging
inline constexpr int kResidentR = 3, kResidentS = 3, kResidentC = 64;
static_assert(kResidentThreads == kTensorThreads, "both forms of the rung launch the same block");

constexpr long long conv_resident_align(long long bytes) {
  return (bytes + 127) / 128 * 128;
}
// A patch pixel's channels, padded to a multiple of 16 halves: WMMA wants every fragment to start
// on 32 bytes, and a fragment may start at any pixel. (Variable templates: the kernel reads them
// as constants, which it may not do with a host function.)
template <int kChannels>
inline constexpr int kResidentPixelPitch = kChannels + 16;
template <int kR, int kS, int kChannels>
inline constexpr long long kResidentWeightBytes =
    (2LL * kR * kS * kChannels * kResidentFilterPitch + 127) / 128 * 128;
constexpr int conv_resident_pixel_pitch(int channels) {
  return channels + 16;
}
// One chunk's input: its pixels of the padded image plus the rows and columns the filter reaches
// beyond them; `row_pitch` is the padded image's width, W + 2 · pad.
constexpr long long conv_resident_patch_bytes(int warps, int rows_per_warp, int r, int s,
                                              int channels, int row_pitch) {
  const long long pixels =
      static_cast<long long>(warps) * rows_per_warp * 16 + (r - 1) * row_pitch + (s - 1);
  return conv_resident_align(2 * pixels * conv_resident_pixel_pitch(channels));
}
// The dynamic shared memory a block takes: the weights' slice, two patches, a staging tile per
// warp.
constexpr long long conv_resident_shared_bytes(int warps, int rows_per_warp, int r, int s,
                                               int channels, int row_pitch) {
  return conv_resident_align(2LL * r * s * channels * kResidentFilterPitch) +  // the weights
         2 * conv_resident_patch_bytes(warps, rows_per_warp, r, s, channels, row_pitch) +
         4LL * warps * 16 * kResidentStagePitch;
}
static_assert(kResidentPixelPitch<kResidentC> == conv_resident_pixel_pitch(kResidentC) &&
                  kResidentWeightBytes<kResidentR, kResidentS, kResidentC> ==
                      conv_resident_align(2LL * kResidentR * kResidentS * kResidentC *
                                          kResidentFilterPitch),
              "the kernel's constants and the host's sizes agree");
inline long long conv_resident_shared_bytes(const ConvDims& d) {
  return conv_resident_shared_bytes(kResidentWarps, kResidentRowsPerWarp, kResidentR, kResidentS,
                                    kResidentC, d.w + 2 * d.pad);
}
// Whether the tensor rung launches its resident form for `d` on a GPU that allows a block
// `shared_per_block_optin` bytes of shared memory.
inline bool conv_resident_applies(const ConvDims& d, unsigned long long shared_per_block_optin) {
  return d.nhwc && d.stride == 1 && d.r == kResidentR && d.s == kResidentS && d.c == kResidentC &&
         d.k % 8 == 0 && d.p > 0 && d.q > 0 &&
         static_cast<unsigned long long>(conv_resident_shared_bytes(d)) <= shared_per_block_optin;
}
// Its grid: one block per multiprocessor, split among the 64-filter slices (grid y), never more
// blocks along x than there are chunks to share.
inline long long conv_resident_rows(const ConvDims& d) {  // 16-pixel rows, padding included
  const long long row_pitch = d.w + 2LL * d.pad, padded_height = d.h + 2LL * d.pad;
  const long long flat = (d.n - 1LL) * padded_height * row_pitch + 1LL * d.p * row_pitch;
  return (flat + 15) / 16;
}
struct ConvResidentGrid {
  unsigned x, y;
};
inline ConvResidentGrid conv_resident_grid(const ConvDims& d, int multiprocessors) {
  const unsigned slices = static_cast<unsigned>((d.k + kResidentFilters - 1) / kResidentFilters);
  const long long chunks = (conv_resident_rows(d) + kResidentWarps * kResidentRowsPerWarp - 1) /
                           (kResidentWarps * kResidentRowsPerWarp);
  long long x = multiprocessors / static_cast<long long>(slices);
  if (x > chunks) x = chunks;
  if (x < 1) x = 1;
  return {static_cast<unsigned>(x), slices};
}

}  // namespace tl::kernels
