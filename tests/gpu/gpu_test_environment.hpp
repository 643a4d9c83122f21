#pragma once
// GPU tests run only where a CUDA device exists; elsewhere every test is skipped, visibly: CTest
// reports them as "Skipped" (SKIP_REGULAR_EXPRESSION on GoogleTest's SKIPPED marker).

#include <gtest/gtest.h>

#include <memory>

#include "compute/device.hpp"

namespace tl::testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto device = compute::make_cuda_device(0);
    if (!device) GTEST_SKIP() << "no CUDA device: " << device.message();
    device_ = std::move(*device);
  }
  compute::Device& device() { return *device_; }

 private:
  std::unique_ptr<compute::Device> device_;
};

}  // namespace tl::testing
