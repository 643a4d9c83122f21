// The capstone's training kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/mlp_launch.inl describes.

#include <cmath>  // expf, logf, sqrtf, fmaxf for the kernels, as nvcc provides them on the device

#include "emulated_launch.hpp"
#include "kernels/mlp_kernels.hpp"

namespace tl::emulated {
#include "kernels/mlp.cuh"
// After the kernels: their description, which names them.
#include "kernels/mlp_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
MlpKernels mlp_emulated() {
  return emulated::mlp_kernels();
}
}  // namespace tl::kernels
