// Lesson 3's kernels compiled by nvcc, launched as kernels/matrix_add_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/matrix_add_kernels.hpp"

namespace tl::gpu {
#include "kernels/matrix_add.cuh"
// After the kernels: their description, which names them.
#include "kernels/matrix_add_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
MatrixAddKernels matrix_add_gpu() {
  return gpu::matrix_add_kernels();
}
std::span<const KernelSymbol> matrix_add_gpu_symbols() {
  return gpu::matrix_add_symbols();
}
}  // namespace tl::kernels
