// Lesson 7's kernel compiled by nvcc, launched as
// lessons/07_moving_data/kernels/moving_data_launch.inl describes, and once more on a caller's
// stream for the pipeline whose copies and kernels overlap.

#include "kernels/gpu/gpu_launch.cuh"
#include "kernels/kernel_registry.hpp"
#include "lessons/07_moving_data/kernels/moving_data_kernels.hpp"

namespace tl::gpu {
#include "lessons/07_moving_data/kernels/moving_data.cuh"
// After the kernels: their description, which names them.
#include "lessons/07_moving_data/kernels/moving_data_launch.inl"

// The one launch in ThreadLab that is not on the default stream: on the default stream every
// kernel would wait for every copy, and nothing could overlap.
Status transform_on_stream(void* stream, const LaunchConfig& config, const float* in, float* out,
                           int n, int rounds) {
  const dim3 grid = kernels::to_dim3(config.grid), block = kernels::to_dim3(config.block);
  transform_chunk<tl::Untraced>
      <<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(in, out, n, rounds, tl::Untraced{});
  return kernels::launch_status(kTransformChunk.name, config);
}
}  // namespace tl::gpu

namespace tl::kernels {
namespace registered {
KernelSetEntry moving_data_gpu();  // listed in the generated GPU registry
KernelSetEntry moving_data_gpu() {
  static const MovingDataKernels kTable = gpu::moving_data_kernels(&gpu::transform_on_stream);
  return register_set("moving_data", "07_moving_data", kTable, &gpu::moving_data_symbols);
}
}  // namespace registered
}  // namespace tl::kernels
