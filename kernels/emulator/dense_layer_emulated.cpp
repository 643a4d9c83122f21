// Lesson 5's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/dense_layer_launch.inl describes.

#include <cmath>  // expf for the kernels' sigmoid, as nvcc provides it on the device

#include "emulated_launch.hpp"
#include "kernels/dense_layer_kernels.hpp"

namespace tl::emulated {
#include "kernels/dense_layer.cuh"
// After the kernels: their description, which names them.
#include "kernels/dense_layer_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
DenseLayerKernels dense_layer_emulated() {
  return emulated::dense_layer_kernels();
}
}  // namespace tl::kernels
