// Lesson 1's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/vector_add_launch.inl describes. The kernel source is included inside a namespace of its
// own so its names cannot collide with the nvcc-compiled kernels of the same name.

#include "emulated_launch.hpp"
#include "kernels/vector_add_kernels.hpp"

namespace tl::emulated {
#include "kernels/vector_add.cuh"
// After the kernels: their description, which names them.
#include "kernels/vector_add_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
VectorAddKernels vector_add_emulated() {
  return emulated::vector_add_kernels();
}
}  // namespace tl::kernels
