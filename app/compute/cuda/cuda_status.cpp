#include "cuda_status.hpp"

namespace tl::compute {

bool is_sticky(cudaError_t error) {
  switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

Status cuda_status(cudaError_t error, const std::string& what) {
  if (error == cudaSuccess) return Status::ok();
  std::string message =
      what + ": " + cudaGetErrorString(error) + " (" + cudaGetErrorName(error) + ")";
  ErrorKind kind = ErrorKind::kCudaError;
  if (is_sticky(error)) {
    kind = ErrorKind::kCudaStickyError;
    message += "; the CUDA context is corrupted and must be reset";
  } else if (error == cudaErrorMemoryAllocation) {
    kind = ErrorKind::kOutOfMemory;
  } else if (error == cudaErrorNoDevice || error == cudaErrorInsufficientDriver ||
             error == cudaErrorInitializationError || error == cudaErrorDevicesUnavailable ||
             error == cudaErrorSystemDriverMismatch ||
             error == cudaErrorCompatNotSupportedOnDevice) {
    kind = ErrorKind::kNoDevice;
  }
  return Error{kind, message};
}

}  // namespace tl::compute
