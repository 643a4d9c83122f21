// Lesson 4's wgmma rung (lessons/04_matmul/kernels/matmul_wgmma.cuh), compiled by nvcc for sm_90a
// alone: Hopper's warpgroup instructions exist only in that arch-specific target, so this
// translation unit is a library of its own (kernels/CMakeLists.txt), built where the build targets
// compute capability 9.0. lessons/04_matmul/kernels/matmul_tensor_gpu.cu calls it for the
// "wgmma-fp16" rung.

#include <cuda_fp16.h>

#include <mutex>
#include <string>

#include "kernels/gpu/gpu_launch.cuh"
#include "lessons/04_matmul/kernels/matmul_wgmma_gpu.hpp"

namespace tl::gpu {
// A namespace of its own: lessons/04_matmul/kernels/matmul_mma.cuh (which the wgmma rung includes
// for its copy helpers) also defines a plain kernel, the layout probe, which matmul_tensor_gpu.cu
// compiles.
namespace wgmma_unit {
#include "lessons/04_matmul/kernels/matmul_wgmma.cuh"
}  // namespace wgmma_unit
using wgmma_unit::matmul_wgmma;
using wgmma_unit::MatmulWgmma;
using wgmma_unit::mma_async_copies_ok;

static_assert(
    MatmulWgmma::BM == 128 && MatmulWgmma::BN == 256 && MatmulWgmma::BK == 64 &&
        MatmulWgmma::THREADS == 256,
    "lessons/04_matmul/kernels/matmul_shapes.hpp plans with the wgmma rung's compiled shape");

int wgmma_shared_bytes() {
  return MatmulWgmma::SHARED_BYTES;
}

template <bool kAsync, class Trace>
constexpr auto kWgmmaFp16 = describe("matmul_wgmma_fp16", &matmul_wgmma<MatmulWgmma, kAsync, Trace>,
                                     kBarriers, wgmma_shared_bytes);

// More than the 48 KiB of shared memory a kernel gets without asking: raised once per
// instantiation, before its first launch or occupancy query.
template <bool kAsync, class Trace>
Status allow_wgmma_shared_memory() {
  static std::once_flag once;
  static cudaError_t result = cudaSuccess;
  std::call_once(once, [] {
    result = cudaFuncSetAttribute(matmul_wgmma<MatmulWgmma, kAsync, Trace>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  MatmulWgmma::SHARED_BYTES);
  });
  if (result == cudaSuccess) return Status::ok();
  return Error{ErrorKind::kCudaError, std::string("matmul_wgmma_fp16 could not reserve ") +
                                          std::to_string(MatmulWgmma::SHARED_BYTES) +
                                          " bytes of shared memory: " + cudaGetErrorString(result)};
}

template <class Trace, class... Records>
Status launch_wgmma(const LaunchConfig& config, const __half* a, const __half* b, float* c, int m,
                    int n, int k, Records... records) {
  // 16-byte copies where every row of A and B starts on a 16-byte boundary; element by element
  // otherwise (the same kernel, compiled both ways).
  if (mma_async_copies_ok(a, b, n, k)) {
    TL_RETURN_IF_ERROR((allow_wgmma_shared_memory<true, Trace>()));
    return launch<kWgmmaFp16<true, Trace>>(config, a, b, c, m, n, k, records...);
  }
  TL_RETURN_IF_ERROR((allow_wgmma_shared_memory<false, Trace>()));
  return launch<kWgmmaFp16<false, Trace>>(config, a, b, c, m, n, k, records...);
}

}  // namespace tl::gpu

namespace tl::kernels {

Status matmul_wgmma_gpu(const LaunchConfig& config, const void* a, const void* b, float* c, int m,
                        int n, int k, TraceRecord* trace) {
  const auto* a16 = static_cast<const __half*>(a);
  const auto* b16 = static_cast<const __half*>(b);
  if (trace == nullptr) return gpu::launch_wgmma<tl::Untraced>(config, a16, b16, c, m, n, k);
  return gpu::launch_wgmma<tl::Traced>(config, a16, b16, c, m, n, k, trace);
}

KernelSymbol matmul_wgmma_gpu_symbol() {
  (void)gpu::allow_wgmma_shared_memory<true, tl::Untraced>();  // else it shows 0 blocks per SM
  return gpu::symbol(gpu::kWgmmaFp16<true, tl::Untraced>);
}

}  // namespace tl::kernels
