#pragma once
// Turning CUDA runtime errors into ThreadLab Status values with the runtime's own words.

#include <cuda_runtime_api.h>

#include <string>

#include "core/result.hpp"

namespace tl::compute {

// True for the errors after which the CUDA context is unusable until cudaDeviceReset: every later
// call in the process returns the same error.
bool is_sticky(cudaError_t error);

// "what: <cudaGetErrorString> (<cudaGetErrorName>)", as kCudaStickyError, kOutOfMemory, kNoDevice
// or kCudaError; OK for cudaSuccess.
Status cuda_status(cudaError_t error, const std::string& what);

}  // namespace tl::compute
