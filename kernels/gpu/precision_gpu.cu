// The precision lesson's kernels compiled by nvcc, launched as kernels/precision_launch.inl
// describes, on CUDA's own __half (cuda_fp16.h) and __nv_bfloat16 (cuda_bf16.h).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "gpu_launch.cuh"
#include "kernels/precision_kernels.hpp"

namespace tl::gpu {
#include "kernels/precision.cuh"
// After the kernels: their description, which names them.
#include "kernels/precision_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
PrecisionKernels precision_gpu() {
  return gpu::precision_kernels();
}
std::span<const KernelSymbol> precision_gpu_symbols() {
  return gpu::precision_symbols();
}
}  // namespace tl::kernels
