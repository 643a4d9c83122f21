// The reductions lesson's kernels compiled by nvcc, launched as
// lessons/06_reductions/kernels/reductions_launch.inl describes, and CUB's device-wide sum and
// inclusive scan (header-only, part of the CUDA toolkit) as the library references the lesson
// measures its ladder and its scan against.

#include <cooperative_groups.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "kernels/gpu/gpu_launch.cuh"
#include "kernels/kernel_registry.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/kernels/reduction_trace.cuh"

namespace tl::gpu {
namespace cg = cooperative_groups;
#include "lessons/06_reductions/kernels/histogram.cuh"
#include "lessons/06_reductions/kernels/scan.cuh"
#include "lessons/06_reductions/kernels/softmax.cuh"
#include "lessons/06_reductions/kernels/sum_ladder.cuh"
#include "lessons/06_reductions/kernels/sum_vectorized.cuh"
#include "lessons/06_reductions/kernels/warp_level.cuh"
// After the kernels: their description, which names them.
#include "lessons/06_reductions/kernels/reductions_launch.inl"

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

Status cub_inclusive_scan(void* temp, std::size_t* temp_bytes, const float* in, float* out, int n) {
  const cudaError_t error = cub::DeviceScan::InclusiveSum(temp, *temp_bytes, in, out, n);
  if (error != cudaSuccess) {
    return Error{ErrorKind::kCudaError, std::string("cub::DeviceScan::InclusiveSum failed: ") +
                                            cudaGetErrorString(error) + " (" +
                                            cudaGetErrorName(error) + ")"};
  }
  if (temp == nullptr) return Status::ok();
  return kernels::launch_status("cub::DeviceScan::InclusiveSum", LaunchConfig{});
}
}  // namespace tl::gpu

namespace tl::kernels {
namespace registered {
KernelSetEntry reductions_gpu();  // listed in the generated GPU registry
KernelSetEntry reductions_gpu() {
  static const ReductionKernels kTable =
      gpu::reduction_kernels(&gpu::cub_sum, &gpu::cub_inclusive_scan);
  return register_set("reductions", "06_reductions", kTable, &gpu::reduction_symbols);
}
}  // namespace registered
}  // namespace tl::kernels
