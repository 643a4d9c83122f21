#include "core/watchdog.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

// A laptop GPU that drives the display: 20 SMs of Ampere (8.6) at 1.5 GHz, 192-bit GDDR6.
DeviceInfo display_gpu() {
  DeviceInfo d;
  d.name = "Laptop GPU";
  d.compute_major = 8;
  d.compute_minor = 6;
  d.multiprocessors = 20;
  d.clock_khz = 1'500'000;
  d.memory_clock_khz = 7'000'000;
  d.memory_bus_width_bits = 192;
  d.kernel_timeout = true;
  return d;
}

TEST(Watchdog, PeakRateFollowsTheLanesPerSm) {
  DeviceInfo d = display_gpu();
  EXPECT_DOUBLE_EQ(peak_fp32_flops(d), 20.0 * 128 * 2 * 1.5e9);
  d.compute_major = 8;
  d.compute_minor = 0;  // A100: 64 FP32 lanes per SM
  EXPECT_DOUBLE_EQ(peak_fp32_flops(d), 20.0 * 64 * 2 * 1.5e9);
  EXPECT_EQ(peak_fp32_flops(DeviceInfo{}), 0.0) << "the emulator has no peak";
}

TEST(Watchdog, PredictionTakesTheSlowerOfComputeAndMemory) {
  const DeviceInfo d = display_gpu();
  const double flops = 2.0 * 4096.0 * 4096 * 4096;
  const double compute_bound = pessimistic_kernel_seconds(d, flops, 1.0);
  EXPECT_DOUBLE_EQ(compute_bound, flops / (peak_fp32_flops(d) * KernelEfficiency{}.compute));
  const double bytes = 64e9;
  const double memory_bound = pessimistic_kernel_seconds(d, 1.0, bytes);
  EXPECT_DOUBLE_EQ(memory_bound,
                   bytes / (d.theoretical_bandwidth_gbps() * 1e9 * KernelEfficiency{}.bandwidth));
  EXPECT_EQ(pessimistic_kernel_seconds(DeviceInfo{}, flops, bytes), 0.0);
}

TEST(Watchdog, AHugeNaiveMultiplyOnADisplayGpuIsRefusedWithTheReason) {
  const DeviceInfo d = display_gpu();
  const double flops = 2.0 * 16384.0 * 16384 * 16384;
  const Status refused = check_watchdog(d, pessimistic_kernel_seconds(d, flops, 0), "matmul_naive");
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(refused.message().find("matmul_naive"), std::string::npos);
  EXPECT_NE(refused.message().find("watchdog"), std::string::npos);
  EXPECT_NE(refused.message().find("Laptop GPU"), std::string::npos);
}

TEST(Watchdog, SmallKernelsAndComputeOnlyGpusRun) {
  DeviceInfo d = display_gpu();
  const double small = 2.0 * 512.0 * 512 * 512;
  EXPECT_TRUE(check_watchdog(d, pessimistic_kernel_seconds(d, small, 0), "matmul_naive").is_ok());
  d.kernel_timeout = false;  // a data-centre GPU: no display, no watchdog
  const double huge = 2.0 * 16384.0 * 16384 * 16384;
  EXPECT_TRUE(check_watchdog(d, pessimistic_kernel_seconds(d, huge, 0), "matmul_naive").is_ok());
}

}  // namespace
}  // namespace tl
