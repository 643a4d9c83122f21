// Lesson 11's tensor rung on wgmma (lessons/11_convolution/kernels/convolution_wgmma.cuh), compiled
// by nvcc for sm_90a alone: Hopper's warpgroup instructions exist only in that arch-specific
// target (lessons/CMakeLists.txt, SM90A_SOURCES).

#include <cuda_fp16.h>

#include <atomic>
#include <string>

#include "kernels/gpu/gpu_launch.cuh"
#include "lessons/11_convolution/kernels/convolution_wgmma_gpu.hpp"

namespace tl::gpu {
namespace conv_wgmma_unit {
#include "lessons/11_convolution/kernels/convolution_wgmma.cuh"
}  // namespace conv_wgmma_unit
using conv_wgmma_unit::conv_implicit_gemm_fp16_wgmma;

// The description's shared memory is the lesson's layer's (56 × 56, padding 1), for the occupancy
// view; every shape that takes this kernel needs more than half of a multiprocessor's, so one
// block per multiprocessor whatever the width. The launch below passes the shape's own amount.
constexpr auto kConvWgmma = describe(
    "conv_implicit_gemm_fp16_wgmma", &conv_implicit_gemm_fp16_wgmma<tl::Untraced>, kBarriers, [] {
      kernels::ConvDims layer{};
      layer.w = 56;
      layer.pad = 1;
      return static_cast<int>(kernels::conv_wgmma_shared_bytes(layer));
    });
}  // namespace tl::gpu

namespace tl::kernels {

namespace {
template <class Trace>
Status launch_wgmma(const LaunchConfig& config, const ConvDims& d, const void* in, const void* wg,
                    float* out, Trace trace) {
  const auto kernel = gpu::conv_implicit_gemm_fp16_wgmma<Trace>;
  const long long shared = conv_wgmma_shared_bytes(d);
  // The most this kernel was allowed so far; a wider image asks for more, once.
  static std::atomic<long long> allowed{0};
  if (shared > allowed.load()) {
    const cudaError_t set = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared));
    if (set != cudaSuccess) {
      return Error{ErrorKind::kCudaError, "the tensor-core rung's wgmma form could not be given " +
                                              std::to_string(shared / 1024) +
                                              " KiB of shared memory: " + cudaGetErrorString(set)};
    }
    allowed = shared;
  }
  kernel<<<to_dim3(config.grid), to_dim3(config.block), static_cast<std::size_t>(shared)>>>(
      static_cast<const __half*>(in), static_cast<const __half*>(wg), out, d.n, d.h, d.w, d.k,
      d.pad, conv_wgmma_tiles(d), conv_wgmma_patch_pixels(d), trace);
  return launch_status(gpu::kConvWgmma.name, config);
}
}  // namespace

Status conv_wgmma_gpu(const LaunchConfig& config, const ConvDims& d, const void* in, const void* wg,
                      float* out, TraceRecord* trace) {
  return trace == nullptr ? launch_wgmma(config, d, in, wg, out, tl::Untraced{})
                          : launch_wgmma(config, d, in, wg, out, tl::Traced{trace});
}

KernelSymbol conv_wgmma_gpu_symbol() {
  return gpu::symbol(gpu::kConvWgmma, nullptr, "conv_wgmma_unit::conv_implicit_gemm_fp16_wgmma");
}

}  // namespace tl::kernels
