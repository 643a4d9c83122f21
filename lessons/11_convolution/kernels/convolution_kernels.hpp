#pragma once
// Lesson 11's launch functions (lessons/11_convolution/kernels/convolution.cuh), one table per
// executor, found by this type: device.kernels().get<kernels::ConvolutionKernels>(). Activations
// are float arrays in the layout d.nhwc names; weights are KCRS floats for the direct and tiled
// kernels and the (C·R·S) × K GEMM matrix (lessons::conv_gemm_weights) for the implicit GEMMs.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "lessons/11_convolution/kernels/convolution_shapes.hpp"

namespace tl::kernels {

struct ConvolutionKernels {
  // One thread per output element, any 1D block, enough blocks to cover N·K·P·Q.
  Status (*direct)(const LaunchConfig& config, ConvDims d, const float* in, const float* w,
                   float* out);
  Status (*direct_traced)(const LaunchConfig& config, ConvDims d, const float* in, const float* w,
                          float* out, TraceRecord* trace);
  // kConvTile × kConvTile blocks (refused otherwise: check_tiled_conv_launch).
  Status (*tiled)(const LaunchConfig& config, ConvDims d, const float* in, const float* w,
                  float* out);
  Status (*tiled_traced)(const LaunchConfig& config, ConvDims d, const float* in, const float* w,
                         float* out, TraceRecord* trace);
  // One thread per element of the unfolded matrix, any 1D block.
  Status (*im2col)(const LaunchConfig& config, ConvDims d, const float* in, float* col);
  // kIgemmThreads × 1 blocks (refused otherwise).
  Status (*implicit_gemm)(const LaunchConfig& config, ConvDims d, const float* in, const float* wg,
                          float* out);
  Status (*implicit_gemm_traced)(const LaunchConfig& config, ConvDims d, const float* in,
                                 const float* wg, float* out, TraceRecord* trace);
  // The tensor-core rung: `in` and `wg` are FP16 (16-bit words), NHWC, C and K multiples of 8,
  // kTensorThreads × 1 blocks. A null `trace` launches the timed kernel. The emulator's entry
  // refuses with the reason (kConvTensorNotEmulated).
  Status (*tensor)(const LaunchConfig& config, ConvDims d, const void* in, const void* wg,
                   float* out, TraceRecord* trace);
};

inline constexpr const char* kConvTensorNotEmulated =
    "the tensor-core rung uses WMMA fragments and cp.async, which the CPU emulator does not "
    "imitate (an imitation of the warp-wide fragments would teach nothing about speed); run on a "
    "GPU of compute capability 8.0 or newer";

// The tiled kernel's block is its tile, and its shared patch is sized for the largest filter and
// stride: any other launch would compute garbage silently, so both executors refuse it first.
inline Status check_tiled_conv_launch(const LaunchConfig& config, const ConvDims& d) {
  const auto t = static_cast<std::uint32_t>(kConvTile);
  if (config.block != Dim3{t, t, 1}) {
    return invalid_argument("conv_tiled needs blocks of " + std::to_string(kConvTile) + "×" +
                            std::to_string(kConvTile) +
                            " threads, one per output of its patch; "
                            "the block is " +
                            to_string(config.block) + ".");
  }
  if (d.r > kConvMaxFilter || d.s > kConvMaxFilter || d.stride > kConvMaxStride) {
    return invalid_argument("conv_tiled's shared patch holds filters up to " +
                            std::to_string(kConvMaxFilter) + " wide at a stride up to " +
                            std::to_string(kConvMaxStride));
  }
  return Status::ok();
}

// The block-tiled rungs have a fixed thread count: every thread has its fixed share of the tile.
inline Status check_fixed_block(const char* kernel, const LaunchConfig& config, int threads) {
  if (config.block == Dim3{static_cast<std::uint32_t>(threads), 1, 1}) return Status::ok();
  return invalid_argument(std::string(kernel) + " needs blocks of exactly " +
                          std::to_string(threads) + "×1×1 threads; the block is " +
                          to_string(config.block) + ".");
}

// What the tensor rung needs of the shape: 16-byte copies of 8 channels.
inline Status check_tensor_conv_shape(const ConvDims& d) {
  if (!d.nhwc) {
    return invalid_argument(
        "the tensor-core rung reads NHWC only: it copies a pixel's channels 8 at a time");
  }
  if (d.c % kTensorChannelMultiple != 0 || d.k % kTensorChannelMultiple != 0) {
    return invalid_argument(
        "the tensor-core rung copies 8 channels (16 bytes) at a time: C and K "
        "must be multiples of 8, not " +
        std::to_string(d.c) + " and " + std::to_string(d.k));
  }
  return Status::ok();
}

Status conv_tensor_gpu(const LaunchConfig& config, ConvDims d, const void* in, const void* wg,
                       float* out, TraceRecord* trace);
Status conv_tensor_emulated(const LaunchConfig& config, ConvDims d, const void* in, const void* wg,
                            float* out, TraceRecord* trace);

}  // namespace tl::kernels
