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

}  // namespace tl::kernels
