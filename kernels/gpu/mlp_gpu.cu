// The capstone's training kernels compiled by nvcc, launched as kernels/mlp_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/mlp_kernels.hpp"

namespace tl::gpu {
#include "kernels/mlp.cuh"
// After the kernels: their description, which names them.
#include "kernels/mlp_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
MlpKernels mlp_gpu() {
  return gpu::mlp_kernels();
}
std::span<const KernelSymbol> mlp_gpu_symbols() {
  return gpu::mlp_symbols();
}
}  // namespace tl::kernels
