// Lesson 4's kernels compiled by nvcc, launched as kernels/matmul_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/matmul_kernels.hpp"

#include <vector>

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
std::span<const KernelSymbol> matmul_tensor_gpu_symbols();  // matmul_tensor_gpu.cu

MatmulKernels matmul_gpu() {
  MatmulKernels table = gpu::matmul_kernels();
  table.tensor = matmul_tensor_gpu;
  table.tensor_layout_probe = matmul_tensor_layout_probe_gpu;
  return table;
}
std::span<const KernelSymbol> matmul_gpu_symbols() {
  // The ladder's kernels and the tensor rungs' (kernels/gpu/matmul_tensor_gpu.cu).
  static const std::vector<KernelSymbol> kAll = [] {
    std::vector<KernelSymbol> all(gpu::matmul_symbols().begin(), gpu::matmul_symbols().end());
    for (const KernelSymbol& symbol : matmul_tensor_gpu_symbols()) all.push_back(symbol);
    return all;
  }();
  return kAll;
}
}  // namespace tl::kernels
