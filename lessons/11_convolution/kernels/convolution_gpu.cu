// Lesson 11's kernels compiled by nvcc, launched as lessons/11_convolution/kernels/
// convolution_launch.inl describes, and the tensor-core rung (GPU-only source,
// lessons/11_convolution/kernels/convolution_tensor.cuh), whose launch lives here.

#include <cuda_fp16.h>
#include <mma.h>

#include <atomic>
#include <string>
#include <vector>

#include "kernels/gpu/gpu_launch.cuh"
#include "kernels/kernel_registry.hpp"
#include "lessons/11_convolution/kernels/convolution_kernels.hpp"

namespace tl::gpu {
#include "kernels/cp_async.cuh"
#include "lessons/11_convolution/kernels/convolution.cuh"
#include "lessons/11_convolution/kernels/convolution_resident.cuh"
#include "lessons/11_convolution/kernels/convolution_tensor.cuh"
// After the kernels: their description, which names them.
#include "lessons/11_convolution/kernels/convolution_launch.inl"

static_assert(kTensorM == kernels::kTensorTileM && kTensorN == kernels::kTensorTileN &&
                  kTensorK == kernels::kTensorTileK && kTensorBlock == kernels::kTensorThreads,
              "lessons/11_convolution/kernels/convolution_shapes.hpp plans with the tensor rung's "
              "shape");

template <class Trace>
constexpr auto kTensor = describe(std::is_same_v<Trace, tl::Untraced>
                                      ? "conv_implicit_gemm_fp16"
                                      : "conv_implicit_gemm_fp16_traced",
                                  &conv_implicit_gemm_fp16<ConvTensorLessonTile, Trace>, kBarriers,
                                  [] { return ConvTensorLessonTile::kSharedBytes; });
// The same tile compiled for one shape, 3 × 3 filters over 64 channels (the lesson's ResNet
// layer): the divisions that place each step's piece by a constant become multiplies and shifts.
// Any other shape takes the general kernel.
using ConvTensorResNetTile =
    ConvTensorTile<ConvTensorLessonTile::BM, ConvTensorLessonTile::BN, ConvTensorLessonTile::BK,
                   ConvTensorLessonTile::WARPS_M, ConvTensorLessonTile::STAGES, 3, 3, 64>;
template <class Trace>
constexpr auto kTensorResNet = describe(std::is_same_v<Trace, tl::Untraced>
                                            ? "conv_implicit_gemm_fp16_3x3x64"
                                            : "conv_implicit_gemm_fp16_3x3x64_traced",
                                        &conv_implicit_gemm_fp16<ConvTensorResNetTile, Trace>,
                                        kBarriers,
                                        [] { return ConvTensorResNetTile::kSharedBytes; });
// The resident form, for the shapes kernels::conv_resident_applies accepts. Its dynamic shared
// memory depends on the image's width, so it is launched here with the shape's amount rather than
// through launch<>; the description's amount is the lesson's layer's (56 × 56, padding 1), for the
// occupancy view: every shape that takes this kernel needs more than half of a multiprocessor's
// shared memory, so one block per multiprocessor whatever the width.
template <class Trace>
constexpr auto conv_resident_kernel =
    &conv_implicit_gemm_fp16_resident<kernels::kResidentR, kernels::kResidentS, kernels::kResidentC,
                                      kernels::kResidentWarps, kernels::kResidentRowsPerWarp,
                                      Trace>;
constexpr auto kTensorResident =
    describe("conv_implicit_gemm_fp16_resident", conv_resident_kernel<tl::Untraced>, kBarriers, [] {
      return static_cast<int>(kernels::conv_resident_shared_bytes(
          kernels::kResidentWarps, kernels::kResidentRowsPerWarp, kernels::kResidentR,
          kernels::kResidentS, kernels::kResidentC, 56 + 2));
    });
}  // namespace tl::gpu

namespace tl::kernels {

namespace {
// The resident form's launch (the shape checked by conv_resident_applies).
template <class Trace>
Status launch_resident(const LaunchConfig& config, const ConvDims& d, const __half* in,
                       const __half* wg, float* out, Trace trace) {
  const auto kernel = gpu::conv_resident_kernel<Trace>;
  const long long shared = conv_resident_shared_bytes(d);
  // The most this kernel was allowed so far; a wider image asks for more, once.
  static std::atomic<long long> allowed{0};
  if (shared > allowed.load()) {
    const cudaError_t set = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared));
    if (set != cudaSuccess) {
      return Error{ErrorKind::kCudaError,
                   "the tensor-core rung's resident form could not be given " +
                       std::to_string(shared / 1024) +
                       " KiB of shared memory: " + cudaGetErrorString(set)};
    }
    allowed = shared;
  }
  const long long patch_halves =
      conv_resident_patch_bytes(kResidentWarps, kResidentRowsPerWarp, kResidentR, kResidentS,
                                kResidentC, d.w + 2 * d.pad) /
      2;
  kernel<<<to_dim3(config.grid), to_dim3(config.block), static_cast<std::size_t>(shared)>>>(
      in, wg, out, d.n, d.h, d.w, d.k, d.pad, conv_resident_rows(d), patch_halves, trace);
  return launch_status(gpu::kTensorResident.name, config);
}
}  // namespace

Status conv_tensor_gpu(const LaunchConfig& config, ConvDims d, const void* in, const void* wg,
                       float* out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_fixed_block("conv_implicit_gemm_fp16", config, kTensorThreads));
  TL_RETURN_IF_ERROR(check_tensor_conv_shape(d));
  // Attributes, not cudaGetDeviceProperties: this runs before every timed launch, and the
  // attribute lookups are cached by the runtime while the properties call is not.
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess &&
      major * 10 + minor < kTensorMinCapability) {
    return Error{ErrorKind::kInvalidArgument,
                 "the tensor-core rung needs compute capability 8.0 or newer (cp.async and FP16 "
                 "WMMA with FP32 accumulation as compiled here); this GPU is " +
                     std::to_string(major) + "." + std::to_string(minor)};
  }
  // Past 48 KiB a kernel's dynamic shared memory must be allowed explicitly, once per kernel.
  static const cudaError_t allowed = [] {
    const cudaError_t results[] = {
        cudaFuncSetAttribute(gpu::conv_implicit_gemm_fp16<gpu::ConvTensorLessonTile, tl::Untraced>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             gpu::ConvTensorLessonTile::kSharedBytes),
        cudaFuncSetAttribute(gpu::conv_implicit_gemm_fp16<gpu::ConvTensorLessonTile, tl::Traced>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             gpu::ConvTensorLessonTile::kSharedBytes),
        cudaFuncSetAttribute(gpu::conv_implicit_gemm_fp16<gpu::ConvTensorResNetTile, tl::Untraced>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             gpu::ConvTensorResNetTile::kSharedBytes),
        cudaFuncSetAttribute(gpu::conv_implicit_gemm_fp16<gpu::ConvTensorResNetTile, tl::Traced>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             gpu::ConvTensorResNetTile::kSharedBytes)};
    for (const cudaError_t result : results) {
      if (result != cudaSuccess) return result;
    }
    return cudaSuccess;
  }();
  if (allowed != cudaSuccess) {
    return Error{ErrorKind::kCudaError,
                 std::string("the tensor-core rung could not be given its ") +
                     std::to_string(gpu::ConvTensorLessonTile::kSharedBytes / 1024) +
                     " KiB of shared memory: " + cudaGetErrorString(allowed)};
  }
  const auto* in16 = static_cast<const __half*>(in);
  const auto* w16 = static_cast<const __half*>(wg);
  // The resident form where the shape and its shared memory allow, else the tile
  // (conv_tensor_kernel in lessons/11_convolution/convolution_runner.cpp names the same choice).
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
      cudaSuccess) {
    optin = 0;
  }
  if (conv_resident_applies(d, static_cast<unsigned long long>(optin))) {
    return trace == nullptr ? launch_resident(config, d, in16, w16, out, tl::Untraced{})
                            : launch_resident(config, d, in16, w16, out, tl::Traced{trace});
  }
  const bool resnet_shape = d.r == 3 && d.s == 3 && d.c == 64;
  if (trace == nullptr) {
    return resnet_shape
               ? gpu::launch<gpu::kTensorResNet<tl::Untraced>>(
                     config, in16, w16, out, d.n, d.c, d.h, d.w, d.k, d.r, d.s, d.stride, d.pad)
               : gpu::launch<gpu::kTensor<tl::Untraced>>(config, in16, w16, out, d.n, d.c, d.h, d.w,
                                                         d.k, d.r, d.s, d.stride, d.pad);
  }
  return resnet_shape
             ? gpu::launch<gpu::kTensorResNet<tl::Traced>>(config, in16, w16, out, d.n, d.c, d.h,
                                                           d.w, d.k, d.r, d.s, d.stride, d.pad,
                                                           trace)
             : gpu::launch<gpu::kTensor<tl::Traced>>(config, in16, w16, out, d.n, d.c, d.h, d.w,
                                                     d.k, d.r, d.s, d.stride, d.pad, trace);
}

namespace {
std::span<const KernelSymbol> convolution_gpu_symbols() {
  // The tensor kernels' shared memory raised first, as their launches do, else the occupancy view
  // shows 0 blocks per SM for one not launched yet (a GPU that cannot give it: the launch says so).
  static const bool raised = [] {
    (void)cudaFuncSetAttribute(
        gpu::conv_implicit_gemm_fp16<gpu::ConvTensorLessonTile, tl::Untraced>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, gpu::ConvTensorLessonTile::kSharedBytes);
    (void)cudaFuncSetAttribute(
        gpu::conv_implicit_gemm_fp16<gpu::ConvTensorResNetTile, tl::Untraced>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, gpu::ConvTensorResNetTile::kSharedBytes);
    (void)cudaFuncSetAttribute(gpu::conv_resident_kernel<tl::Untraced>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               gpu::kTensorResident.dynamic_shared_bytes());
    (void)cudaGetLastError();  // a refusal here is not the next launch's error
    return true;
  }();
  (void)raised;
  static const std::vector<KernelSymbol> kAll = [] {
    std::vector<KernelSymbol> all(gpu::convolution_symbols().begin(),
                                  gpu::convolution_symbols().end());
    // Each with the name the Compiled tab's listing gives its template instance
    // (CompiledListingNames in tests/gpu/test_compiled_listing_gpu.cpp checks them).
    all.push_back(
        gpu::symbol(gpu::kTensor<tl::Untraced>, nullptr,
                    "conv_implicit_gemm_fp16<ConvTensorTile<128, 64, 32, 4, 3, 0, 0, 0>>"));
    all.push_back(
        gpu::symbol(gpu::kTensorResNet<tl::Untraced>, nullptr,
                    "conv_implicit_gemm_fp16<ConvTensorTile<128, 64, 32, 4, 3, 3, 3, 64>>"));
    all.push_back(gpu::symbol(gpu::kTensorResident, nullptr,
                              "conv_implicit_gemm_fp16_resident<3, 3, 64, 8, 2>"));
    return all;
  }();
  return kAll;
}
}  // namespace

namespace registered {
KernelSetEntry convolution_gpu();  // listed in the generated GPU registry
KernelSetEntry convolution_gpu() {
  static const ConvolutionKernels kTable = [] {
    ConvolutionKernels table = gpu::convolution_kernels();
    table.tensor = conv_tensor_gpu;
    return table;
  }();
  return register_set("convolution", "11_convolution", kTable, &convolution_gpu_symbols);
}
}  // namespace registered

}  // namespace tl::kernels
