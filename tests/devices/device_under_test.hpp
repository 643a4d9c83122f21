#pragma once
// A lesson's kernel tests are written once, against the device under test, and each test
// executable runs them on the devices it has: the emulator suite on the CPU emulator, the GPU suite
// on CUDA device 0 (skipped, visibly, where there is none). One source, so the emulator's and the
// GPU's checks of a kernel can no longer drift apart.
//
//   class VectorAddKernels : public tl::testing::OnEveryDevice {};
//   TEST_P(VectorAddKernels, ...) { ... device() ... }
//   THREADLAB_ON_EVERY_DEVICE(VectorAddKernels);

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compute/device.hpp"

namespace tl::testing {

enum class DeviceUnderTest { kEmulator, kGpu };

// The devices this test executable runs lesson tests on, and how it opens one (an error where the
// machine has none). Each executable defines both, in one file of its own.
std::vector<DeviceUnderTest> devices_under_test();
Result<std::unique_ptr<compute::Device>> open_device_under_test(DeviceUnderTest device);

inline std::string device_name(DeviceUnderTest device) {
  return device == DeviceUnderTest::kGpu ? "Gpu" : "Emulator";
}

class OnEveryDevice : public ::testing::TestWithParam<DeviceUnderTest> {
 protected:
  void SetUp() override {
    auto opened = open_device_under_test(GetParam());
    if (!opened) GTEST_SKIP() << "no " << device_name(GetParam()) << ": " << opened.message();
    device_ = std::move(*opened);
  }
  compute::Device& device() { return *device_; }
  [[nodiscard]] bool on_gpu() const { return GetParam() == DeviceUnderTest::kGpu; }

 private:
  std::unique_ptr<compute::Device> device_;
};

}  // namespace tl::testing

#define THREADLAB_ON_EVERY_DEVICE(suite)                                         \
  INSTANTIATE_TEST_SUITE_P(                                                      \
      Devices, suite, ::testing::ValuesIn(::tl::testing::devices_under_test()),  \
      [](const ::testing::TestParamInfo<::tl::testing::DeviceUnderTest>& info) { \
        return ::tl::testing::device_name(info.param);                           \
      })
