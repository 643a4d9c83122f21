// Lesson 4's kernels compiled by nvcc, launched as kernels/matmul_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/matmul_kernels.hpp"

namespace tl::gpu {
#include "kernels/matmul.cuh"
#include "kernels/matmul_regtile_1d.cuh"
#include "kernels/matmul_regtile_2d.cuh"
#include "kernels/matmul_tile_io.cuh"
#include "kernels/matmul_vectorized.cuh"
#include "kernels/matmul_warptile.cuh"
// After the kernels: their description, which names them.
#include "kernels/matmul_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
MatmulKernels matmul_gpu() {
  return gpu::matmul_kernels();
}
std::span<const KernelSymbol> matmul_gpu_symbols() {
  return gpu::matmul_symbols();
}
}  // namespace tl::kernels
