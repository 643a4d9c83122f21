// The precision lesson's kernels compiled by nvcc, launched as
// lessons/08_precision/kernels/precision_launch.inl describes, on CUDA's own __half (cuda_fp16.h)
// and __nv_bfloat16 (cuda_bf16.h).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/gpu/gpu_launch.cuh"
#include "kernels/kernel_registry.hpp"
#include "lessons/08_precision/kernels/precision_kernels.hpp"

namespace tl::gpu {
#include "lessons/08_precision/kernels/precision.cuh"
// After the kernels: their description, which names them.
#include "lessons/08_precision/kernels/precision_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
namespace registered {
KernelSetEntry precision_gpu();  // listed in the generated GPU registry
KernelSetEntry precision_gpu() {
  static const PrecisionKernels kTable = gpu::precision_kernels();
  return register_set("precision", "08_precision", kTable, &gpu::precision_symbols);
}
}  // namespace registered
}  // namespace tl::kernels
