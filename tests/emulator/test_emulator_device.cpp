// The emulator device's answers to what only a GPU has.

#include <gtest/gtest.h>

#include <vector>

#include "compute/device.hpp"

namespace tl::compute {
namespace {

TEST(EmulatorDevice, HasNoKernelResourcesAndSaysWhy) {
  auto device = make_emulator_device();
  auto resources = device->kernel_resources("vector_add");
  ASSERT_FALSE(resources.is_ok());
  EXPECT_EQ(resources.error().kind, ErrorKind::kNoDevice);
  EXPECT_NE(resources.message().find("NVIDIA GPU"), std::string::npos) << resources.message();
  EXPECT_FALSE(device->active_blocks_per_sm("vector_add", 256, 0).is_ok());
  EXPECT_FALSE(can_compute_occupancy(device->info()));
}

TEST(EmulatorDevice, CopiesWithinItsMemory) {
  auto device = make_emulator_device();
  auto a = allocate_array<float>(*device, 1000);
  auto b = allocate_array<float>(*device, 1000);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  std::vector<float> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  ASSERT_TRUE(device->copy_to_device(a->data(), values.data(), a->bytes()).is_ok());
  ASSERT_TRUE(device->copy_on_device(b->data(), a->data(), a->bytes()).is_ok());
  std::vector<float> back(1000);
  ASSERT_TRUE(device->copy_to_host(back.data(), b->data(), b->bytes()).is_ok());
  EXPECT_EQ(back, values);
}

}  // namespace
}  // namespace tl::compute
