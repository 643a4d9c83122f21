// Lesson 2's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/thread_hierarchy_launch.inl describes.

#include <cmath>  // fmaf for the divergence kernels' two sides, as nvcc provides it on the device

#include "emulated_launch.hpp"
#include "kernels/thread_hierarchy_kernels.hpp"

namespace tl::emulated {
#include "kernels/thread_hierarchy.cuh"
// After the kernels: their description, which names them.
#include "kernels/thread_hierarchy_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
ThreadHierarchyKernels thread_hierarchy_emulated() {
  return emulated::thread_hierarchy_kernels();
}
}  // namespace tl::kernels
