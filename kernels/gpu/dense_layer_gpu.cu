// Lesson 5's kernels compiled by nvcc, launched as kernels/dense_layer_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/dense_layer_kernels.hpp"

namespace tl::gpu {
#include "kernels/dense_layer.cuh"
// After the kernels: their description, which names them.
#include "kernels/dense_layer_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
DenseLayerKernels dense_layer_gpu() {
  return gpu::dense_layer_kernels();
}
std::span<const KernelSymbol> dense_layer_gpu_symbols() {
  return gpu::dense_layer_symbols();
}
}  // namespace tl::kernels
