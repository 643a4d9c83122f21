// Lesson 1's kernels compiled by nvcc, launched as kernels/vector_add_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/vector_add_kernels.hpp"

namespace tl::gpu {
#include "kernels/vector_add.cuh"
// After the kernels: their description, which names them.
#include "kernels/vector_add_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
VectorAddKernels vector_add_gpu() {
  return gpu::vector_add_kernels();
}
std::span<const KernelSymbol> vector_add_gpu_symbols() {
  return gpu::vector_add_symbols();
}
}  // namespace tl::kernels
