// Lesson 4's tensor-core rungs compiled by nvcc (lessons/04_matmul/kernels/matmul_wmma.cuh,
// lessons/04_matmul/kernels/matmul_mma.cuh; the wgmma rung,
// lessons/04_matmul/kernels/matmul_wgmma.cuh, in lessons/04_matmul/kernels/matmul_wgmma_gpu.cu).
// They are GPU-only source, so their launch functions live here rather than in the shared
// description (lessons/04_matmul/kernels/matmul_launch.inl); the emulator's table entry refuses
// with the reason.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <mutex>
#include <string>
#include <vector>

#include "kernels/gpu/gpu_launch.cuh"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#if defined(THREADLAB_HAVE_SM90A)
#include "lessons/04_matmul/kernels/matmul_wgmma_gpu.hpp"
#endif

namespace tl::gpu {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul_mma.cuh"
#include "lessons/04_matmul/kernels/matmul_wmma.cuh"

static_assert(
    MatmulMma::BM == 128 && MatmulMma::BN == 128 && MatmulMma::BK == 64 &&
        MatmulMma::THREADS == 128,
    "lessons/04_matmul/kernels/matmul_shapes.hpp plans with the mma rung's compiled shape");
static_assert(
    kWmmaTileM == 64 && kWmmaTileN == 64 && kWmmaTileK == 32 && kWmmaThreads == 128,
    "lessons/04_matmul/kernels/matmul_shapes.hpp plans with the WMMA rungs' compiled shape");

int mma_shared_bytes() {
  return MatmulMma::SHARED_BYTES;
}

template <class Trace>
constexpr auto kWmmaFp16 = describe("matmul_wmma_fp16", &matmul_wmma<WmmaFp16, Trace>, kBarriers);
template <class Trace>
constexpr auto kWmmaBf16 = describe("matmul_wmma_bf16", &matmul_wmma<WmmaBf16, Trace>, kBarriers);
template <class Trace>
constexpr auto kWmmaTf32 = describe("matmul_wmma_tf32", &matmul_wmma<WmmaTf32, Trace>, kBarriers);
template <bool kAsync, class Trace>
constexpr auto kMmaFp16 = describe("matmul_mma_fp16", &matmul_mma<MatmulMma, kAsync, Trace>,
                                   kBarriers, mma_shared_bytes);

// The mma rung uses more than the 48 KiB of shared memory a kernel gets without asking; the
// limit is raised once per instantiation, before its first launch or occupancy query.
template <bool kAsync, class Trace>
Status allow_mma_shared_memory() {
  static std::once_flag once;
  static cudaError_t result = cudaSuccess;
  std::call_once(once, [] {
    result =
        cudaFuncSetAttribute(matmul_mma<MatmulMma, kAsync, Trace>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, MatmulMma::SHARED_BYTES);
  });
  if (result == cudaSuccess) return Status::ok();
  return Error{ErrorKind::kCudaError, std::string("matmul_mma_fp16 could not reserve ") +
                                          std::to_string(MatmulMma::SHARED_BYTES) +
                                          " bytes of shared memory: " + cudaGetErrorString(result)};
}

Status check_tensor_device() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    return Error{ErrorKind::kCudaError, "could not read the GPU's compute capability"};
  }
  if (major * 10 + minor < kernels::kMatmulTensorMinCapability) {
    return Error{ErrorKind::kInvalidArgument,
                 "the tensor-core rungs are compiled for compute capability 8.0 and newer "
                 "(Ampere, Ada, Hopper: BF16 and TF32 fragments, mma.m16n8k16 and cp.async); "
                 "this GPU is " +
                     std::to_string(major) + "." + std::to_string(minor)};
  }
  return Status::ok();
}

// The wgmma rung is compiled for sm_90a, which runs on compute capability 9.0 alone.
Status check_wgmma_device() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    return Error{ErrorKind::kCudaError, "could not read the GPU's compute capability"};
  }
  if (major * 10 + minor != kernels::kMatmulWgmmaCapability) {
    return Error{ErrorKind::kInvalidArgument,
                 "the wgmma rungs use Hopper's warpgroup instructions, compiled for compute "
                 "capability 9.0 alone (sm_90a); this GPU is " +
                     std::to_string(major) + "." + std::to_string(minor)};
  }
  return Status::ok();
}

template <class Trace, class... Records>
Status launch_tensor(const LaunchConfig& config, kernels::MatmulKernel kernel, const void* a,
                     const void* b, float* c, int m, int n, int k, Records... records) {
  using kernels::MatmulKernel;
  const auto* a16 = static_cast<const __half*>(a);
  const auto* b16 = static_cast<const __half*>(b);
  switch (kernel) {
    case MatmulKernel::kWmmaFp16:
      return launch<kWmmaFp16<Trace>>(config, a16, b16, c, m, n, k, records...);
    case MatmulKernel::kWmmaBf16:
      return launch<kWmmaBf16<Trace>>(config, static_cast<const __nv_bfloat16*>(a),
                                      static_cast<const __nv_bfloat16*>(b), c, m, n, k, records...);
    case MatmulKernel::kWmmaTf32:
      return launch<kWmmaTf32<Trace>>(config, static_cast<const float*>(a),
                                      static_cast<const float*>(b), c, m, n, k, records...);
    default:
      // 16-byte copies where every row of A and B starts on a 16-byte boundary; element by
      // element otherwise (the same kernel, compiled both ways).
      if (mma_async_copies_ok(a, b, n, k)) {
        TL_RETURN_IF_ERROR((allow_mma_shared_memory<true, Trace>()));
        return launch<kMmaFp16<true, Trace>>(config, a16, b16, c, m, n, k, records...);
      }
      TL_RETURN_IF_ERROR((allow_mma_shared_memory<false, Trace>()));
      return launch<kMmaFp16<false, Trace>>(config, a16, b16, c, m, n, k, records...);
  }
}

}  // namespace tl::gpu

namespace tl::kernels {

Status matmul_tensor_gpu(const LaunchConfig& config, MatmulKernel kernel, const void* a,
                         const void* b, float* c, int m, int n, int k, TraceRecord* trace) {
  if (!is_tensor_rung(kernel)) {
    return invalid_argument("the " + std::string(to_string(kernel)) +
                            " kernel is not a tensor-core rung");
  }
  TL_RETURN_IF_ERROR(check_block_tile_launch(kernel, config));
  TL_RETURN_IF_ERROR(gpu::check_tensor_device());
  if (is_wgmma_rung(kernel)) {
#if defined(THREADLAB_HAVE_SM90A)
    TL_RETURN_IF_ERROR(gpu::check_wgmma_device());
    if (kernel == MatmulKernel::kWgmmaFp16)
      return matmul_wgmma_gpu(config, a, b, c, m, n, k, trace);
    return matmul_wgmma_tma_gpu(config, kernel == MatmulKernel::kWgmmaTmaBf16, a, b, c, m, n, k,
                                trace);
#else
    return Error{
        ErrorKind::kInvalidArgument,
        "the " + std::string(to_string(kernel)) +
            " rung is not in this build: it compiles for sm_90a only, and this build's CUDA "
            "architectures do not include 90"};
#endif
  }
  if (trace == nullptr) {
    return gpu::launch_tensor<tl::Untraced>(config, kernel, a, b, c, m, n, k);
  }
  return gpu::launch_tensor<tl::Traced>(config, kernel, a, b, c, m, n, k, trace);
}

Status matmul_tensor_layout_probe_gpu(float* a_out, float* b_out, float* c_out) {
  TL_RETURN_IF_ERROR(gpu::check_tensor_device());
  gpu::matmul_mma_layout_probe<<<1, 32>>>(a_out, b_out, c_out);
  return launch_status("matmul_mma_layout_probe", LaunchConfig{{1, 1, 1}, {32, 1, 1}});
}

// For the occupancy view: the timed kernels, the mma and wgmma rungs with their 16-byte copies.
std::span<const KernelSymbol> matmul_tensor_gpu_symbols() {
  static const std::vector<KernelSymbol> kSymbols = [] {
    std::vector<KernelSymbol> symbols = {
        // Each with the name the Compiled tab's listing gives its template instance.
        gpu::symbol(gpu::kWmmaFp16<tl::Untraced>, nullptr, "matmul_wmma<WmmaFp16>"),
        gpu::symbol(gpu::kWmmaBf16<tl::Untraced>, nullptr, "matmul_wmma<WmmaBf16>"),
        gpu::symbol(gpu::kWmmaTf32<tl::Untraced>, nullptr, "matmul_wmma<WmmaTf32>"),
        gpu::symbol(gpu::kMmaFp16<true, tl::Untraced>, nullptr,
                    "matmul_mma<MmaShape<128, 128, 64, 2, 2, 3>, true>"),
    };
#if defined(THREADLAB_HAVE_SM90A)
    for (const KernelSymbol& wgmma : matmul_wgmma_gpu_symbols()) symbols.push_back(wgmma);
#endif
    return symbols;
  }();
  (void)gpu::allow_mma_shared_memory<true, tl::Untraced>();  // else it shows 0 blocks per SM
  return kSymbols;
}

}  // namespace tl::kernels
