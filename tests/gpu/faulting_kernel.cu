#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "faulting_kernel.hpp"

namespace tl::testing {
namespace {

__global__ void write_to_an_address_nobody_owns(int* nowhere) {
  nowhere[threadIdx.x] = 1;
}

}  // namespace

Status launch_faulting_kernel() {
  // Page 16 of the address space: never mapped for the device.
  write_to_an_address_nobody_owns<<<1, 32>>>(reinterpret_cast<int*>(std::uintptr_t{16} << 12));
  const cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) return Status::ok();
  return Error{ErrorKind::kCudaError,
               std::string("the faulting kernel did not launch: ") + cudaGetErrorString(error)};
}

}  // namespace tl::testing
