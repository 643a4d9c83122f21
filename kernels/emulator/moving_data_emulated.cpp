// Lesson 7's kernel compiled by the host compiler for the CPU emulator, launched as
// kernels/moving_data_launch.inl describes. The emulator has no streams: its table has no stream
// launch, and the lesson models the pipeline's timeline from measured times instead.

#include "emulated_launch.hpp"
#include "kernels/moving_data_kernels.hpp"

namespace tl::emulated {
#include "kernels/moving_data.cuh"
// After the kernels: their description, which names them.
#include "kernels/moving_data_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
MovingDataKernels moving_data_emulated() {
  return emulated::moving_data_kernels(nullptr);
}
}  // namespace tl::kernels
