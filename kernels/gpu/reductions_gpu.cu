// The reductions lesson's kernels compiled by nvcc, launched as kernels/reductions_launch.inl
// describes, and CUB's device-wide sum (header-only, part of the CUDA toolkit) as the library
// reference the lesson measures its ladder against.

#include <cub/device/device_reduce.cuh>

#include "gpu_launch.cuh"
#include "kernels/reduction_kernels.hpp"
#include "kernels/reduction_trace.cuh"

namespace tl::gpu {
#include "kernels/histogram.cuh"
#include "kernels/softmax.cuh"
#include "kernels/sum_ladder.cuh"
#include "kernels/sum_vectorized.cuh"
// After the kernels: their description, which names them.
#include "kernels/reductions_launch.inl"

// On the default stream, like ThreadLab's kernels, so CUDA events time both the same way.
Status cub_sum(void* temp, std::size_t* temp_bytes, const float* in, float* out, int n) {
  const cudaError_t error = cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, n);
  if (error != cudaSuccess) {
    return Error{ErrorKind::kCudaError, std::string("cub::DeviceReduce::Sum failed: ") +
                                            cudaGetErrorString(error) + " (" +
                                            cudaGetErrorName(error) + ")"};
  }
  if (temp == nullptr) return Status::ok();
  return kernels::launch_status("cub::DeviceReduce::Sum", LaunchConfig{});
}
}  // namespace tl::gpu

namespace tl::kernels {
ReductionKernels reductions_gpu() {
  return gpu::reduction_kernels(&gpu::cub_sum);
}
std::span<const KernelSymbol> reductions_gpu_symbols() {
  return gpu::reduction_symbols();
}
}  // namespace tl::kernels
