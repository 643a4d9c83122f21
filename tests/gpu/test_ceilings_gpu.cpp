// The device's ceilings measured on the GPU: the copy bandwidth and cuBLAS SGEMM's rate exist and
// are plausible for the device (no timing thresholds: only that they were measured).

#include <gtest/gtest.h>

#include <iostream>

#include "compute/ceilings.hpp"
#include "gpu_test_environment.hpp"

namespace tl {
namespace {

class CeilingsGpu : public testing::GpuTest {};

TEST_F(CeilingsGpu, CopyAndSgemmAreMeasured) {
  auto ceilings = compute::measure_ceilings(device());
  ASSERT_TRUE(ceilings.is_ok()) << ceilings.message();
  EXPECT_GT(ceilings->copy_bytes_per_second, 0);
  EXPECT_GT(ceilings->sgemm_flops_per_second, 0) << ceilings->sgemm_absent;
  EXPECT_GT(ceilings->sgemm_size, 0u);
  EXPECT_TRUE(ceilings->sgemm_absent.empty());
  // The copy cannot beat the memory's theoretical bandwidth by much (the ceiling counts bytes read
  // and written, as the theoretical figure does).
  const double theoretical = device().info().theoretical_bandwidth_gbps() * 1e9;
  if (theoretical > 0) EXPECT_LT(ceilings->copy_bytes_per_second, 1.1 * theoretical);
  std::cout << "device copy " << ceilings->copy_bytes_per_second / 1e9 << " GB/s ("
            << ceilings->copy_buffer_bytes / (1 << 20) << " MiB buffers), cuBLAS SGEMM "
            << ceilings->sgemm_size << "^3 " << ceilings->sgemm_flops_per_second / 1e12
            << " TFLOP/s\n";
}

TEST_F(CeilingsGpu, CopyOnDeviceCopiesTheBytes) {
  auto a = compute::allocate_array<float>(device(), 4096);
  auto b = compute::allocate_array<float>(device(), 4096);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  std::vector<float> values(4096);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) + 0.25f;
  ASSERT_TRUE(device().copy_to_device(a->data(), values.data(), a->bytes()).is_ok());
  ASSERT_TRUE(device().copy_on_device(b->data(), a->data(), a->bytes()).is_ok());
  std::vector<float> back(4096);
  ASSERT_TRUE(device().copy_to_host(back.data(), b->data(), b->bytes()).is_ok());
  EXPECT_EQ(back, values);
}

}  // namespace
}  // namespace tl
