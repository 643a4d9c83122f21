#pragma once
// The GPU executor's half of the kernel descriptions (kernels/kernel_description.hpp): `launch`
// runs a described kernel with <<<grid, block, shared>>> and reports a refused configuration at
// once. A kernel set's gpu/<set>_gpu.cu includes its kernels and its description after this, inside
// namespace tl::gpu.

#include <cuda_runtime.h>

#include <string>
#include <tuple>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "kernel_symbols.hpp"
#include "kernels/kernel_description.hpp"
#include "kernels/trace.cuh"

namespace tl::kernels {

inline dim3 to_dim3(const Dim3& d) {
  return dim3(d.x, d.y, d.z);
}

// A launch reports configuration errors at once through cudaGetLastError, which also clears them:
// that is exactly the "invalid configuration argument" the lesson wants users to see, word for
// word.
inline Status launch_status(const char* kernel, const LaunchConfig& config) {
  const cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) return Status::ok();
  return Error{ErrorKind::kCudaError, std::string(kernel) + config.to_string() +
                                          " failed to launch: " + cudaGetErrorString(error) + " (" +
                                          cudaGetErrorName(error) + ")"};
}

}  // namespace tl::kernels

namespace tl::gpu {

using kernels::describe;
using kernels::kBarriers;
using kernels::symbol;

// The launch function of `kernel`, its parameters those of the table entry it is assigned to
// (deduced from the function pointer type there).
template <const auto& kernel, class... Args>
Status launch(const LaunchConfig& config, Args... args) {
  using Function = std::remove_cvref_t<decltype(kernel.function)>;
  const auto params = kernels::KernelArguments<Function>::from(args...);
  const int shared = kernel.dynamic_shared_bytes();
  const dim3 grid = kernels::to_dim3(config.grid), block = kernels::to_dim3(config.block);
  Function function = kernel.function;
  std::apply([&](auto... p) { function<<<grid, block, shared>>>(p...); }, params);
  return kernels::launch_status(kernel.name, config);
}

}  // namespace tl::gpu
