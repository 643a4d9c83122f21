// Built when ThreadLab is compiled without the CUDA toolkit: there is never a CUDA device.

#include "compute/device.hpp"

namespace tl::compute {

Result<std::unique_ptr<Device>> make_cuda_device(int /*ordinal*/) {
  return Error{
      ErrorKind::kNoDevice,
      "this ThreadLab was built without the CUDA toolkit, so kernels run on the CPU emulator"};
}

}  // namespace tl::compute
