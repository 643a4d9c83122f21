// Lesson 2's kernels compiled by nvcc, launched as kernels/thread_hierarchy_launch.inl describes.

#include "gpu_launch.cuh"
#include "kernels/thread_hierarchy_kernels.hpp"

namespace tl::gpu {
#include "kernels/thread_hierarchy.cuh"
// After the kernels: their description, which names them.
#include "kernels/thread_hierarchy_launch.inl"
}  // namespace tl::gpu

namespace tl::kernels {
ThreadHierarchyKernels thread_hierarchy_gpu() {
  return gpu::thread_hierarchy_kernels();
}
std::span<const KernelSymbol> thread_hierarchy_gpu_symbols() {
  return gpu::thread_hierarchy_symbols();
}
}  // namespace tl::kernels
