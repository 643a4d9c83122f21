// The vector-add kernel's hardware counters through CUPTI on a real GPU: a kernel of known traffic
// reports the DRAM bytes it must move. Skipped, with the reason, where counters are not allowed.

#include <gtest/gtest.h>

#include <iostream>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/run_support.hpp"
#include "counters_test_support.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"

namespace tl::testing {
namespace {

class VectorAddCountersGpu : public GpuTest {};

// A vector add of 2^26 floats reads 512 MiB and writes 256 MiB, far more than any L2 holds: DRAM
// must move all of it, once.
TEST_F(VectorAddCountersGpu, AKernelOfKnownTrafficReportsItsDramBytes) {
  constexpr int n = 1 << 26;
  auto a = compute::allocate_array<float>(device(), n);
  auto b = compute::allocate_array<float>(device(), n);
  auto c = compute::allocate_array<float>(device(), n);
  ASSERT_TRUE(a.is_ok() && b.is_ok() && c.is_ok());
  ASSERT_TRUE(device().fill_zero(a->data(), a->bytes()).is_ok());
  ASSERT_TRUE(device().fill_zero(b->data(), b->bytes()).is_ok());
  const LaunchConfig config{{n / 256, 1, 1}, {256, 1, 1}};
  auto counted = compute::count_kernel(device(), [&] {
    return device().kernels().get<kernels::VectorAddKernels>().add(config, a->data(), b->data(),
                                                                   c->data(), n);
  });
  SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
  const double read = 2.0 * n * sizeof(float);
  const double written = 1.0 * n * sizeof(float);
  std::cout << device().info().name << ": vector add 2^26: DRAM " << counted->dram_bytes_read
            << " B read (expected " << read << "), " << counted->dram_bytes_written
            << " B written (expected " << written << "), L2 hit rate " << counted->l2_hit_rate
            << ", occupancy " << counted->achieved_occupancy << ", " << counted->passes
            << " passes\n";
  EXPECT_NEAR(counted->dram_bytes_read, read, 0.1 * read);
  EXPECT_NEAR(counted->dram_bytes_written, written, 0.1 * written);
  EXPECT_GT(counted->achieved_occupancy, 0.0);
  EXPECT_LE(counted->achieved_occupancy, 1.0);
  EXPECT_GE(counted->passes, 1);
}

}  // namespace
}  // namespace tl::testing
