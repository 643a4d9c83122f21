// Lesson 3's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/matrix_add_launch.inl describes.

#include "emulated_launch.hpp"
#include "kernels/matrix_add_kernels.hpp"

namespace tl::emulated {
#include "kernels/matrix_add.cuh"
// After the kernels: their description, which names them.
#include "kernels/matrix_add_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
MatrixAddKernels matrix_add_emulated() {
  return emulated::matrix_add_kernels();
}
}  // namespace tl::kernels
