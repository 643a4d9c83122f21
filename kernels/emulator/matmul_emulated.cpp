// Lesson 4's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/matmul_launch.inl describes.

#include "emulated_launch.hpp"
#include "kernels/matmul_kernels.hpp"

namespace tl::emulated {
#include "kernels/matmul.cuh"
#include "kernels/matmul_regtile_1d.cuh"
#include "kernels/matmul_regtile_2d.cuh"
#include "kernels/matmul_tile_io.cuh"
#include "kernels/matmul_vectorized.cuh"
#include "kernels/matmul_warptile.cuh"
// After the kernels: their description, which names them.
#include "kernels/matmul_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
MatmulKernels matmul_emulated() {
  return emulated::matmul_kernels();
}
}  // namespace tl::kernels
