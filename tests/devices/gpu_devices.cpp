// The GPU suite runs the lessons' kernel tests on CUDA device 0; without one each reports itself
// skipped with the reason.
#include "device_under_test.hpp"

namespace tl::testing {

std::vector<DeviceUnderTest> devices_under_test() {
  return {DeviceUnderTest::kGpu};
}

Result<std::unique_ptr<compute::Device>> open_device_under_test(DeviceUnderTest device) {
  if (device != DeviceUnderTest::kGpu) {
    return Error{ErrorKind::kNoDevice, "this executable runs the lesson tests on the GPU"};
  }
  return compute::make_cuda_device(0);
}

}  // namespace tl::testing
