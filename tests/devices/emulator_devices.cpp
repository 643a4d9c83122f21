// The emulator suite runs the lessons' kernel tests on the CPU emulator.
#include "device_under_test.hpp"

namespace tl::testing {

std::vector<DeviceUnderTest> devices_under_test() {
  return {DeviceUnderTest::kEmulator};
}

Result<std::unique_ptr<compute::Device>> open_device_under_test(DeviceUnderTest device) {
  if (device != DeviceUnderTest::kEmulator) {
    return Error{ErrorKind::kNoDevice, "this executable runs the lesson tests on the emulator"};
  }
  return compute::make_emulator_device();
}

}  // namespace tl::testing
