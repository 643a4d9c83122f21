#pragma once
// Helpers shared by the nvcc-compiled launch functions.

#include <cuda_runtime.h>

#include <string>

#include "core/launch_config.hpp"
#include "core/result.hpp"

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
