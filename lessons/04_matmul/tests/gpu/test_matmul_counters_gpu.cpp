// The naive matrix multiply's hardware counters through CUPTI on a real GPU: a kernel re-reading a
// buffer that fits in L2 hits there. Skipped, with the reason, where counters are not allowed.

#include <gtest/gtest.h>

#include <iostream>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/run_support.hpp"
#include "counters_test_support.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::testing {
namespace {

class MatmulCountersGpu : public GpuTest {};

// The naive product of two 512 × 512 matrices reads every element of A and B 512 times; the 3 MiB
// of A, B and C fit in the L2 of every GPU ThreadLab runs on, so nearly every L2 lookup hits.
TEST_F(MatmulCountersGpu, AKernelRereadingASmallBufferHitsInL2) {
  constexpr int side = 512;
  const std::size_t elements = std::size_t{side} * side;
  auto a = compute::allocate_array<float>(device(), elements);
  auto b = compute::allocate_array<float>(device(), elements);
  auto c = compute::allocate_array<float>(device(), elements);
  ASSERT_TRUE(a.is_ok() && b.is_ok() && c.is_ok());
  ASSERT_TRUE(device().fill_zero(a->data(), a->bytes()).is_ok());
  ASSERT_TRUE(device().fill_zero(b->data(), b->bytes()).is_ok());
  const LaunchConfig config{{side / 16, side / 16, 1}, {16, 16, 1}};
  auto counted = compute::count_kernel(device(), [&] {
    return device().kernels().get<kernels::MatmulKernels>().naive(config, a->data(), b->data(),
                                                                  c->data(), side, side, side);
  });
  SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
  std::cout << device().info().name << ": naive matmul 512: L2 hit rate " << counted->l2_hit_rate
            << ", L2 served " << counted->l2_bytes << " B, DRAM read " << counted->dram_bytes_read
            << " B\n";
  EXPECT_GT(counted->l2_hit_rate, 0.8);
  // L2 serves the re-reads: far more bytes than DRAM delivers.
  EXPECT_GT(counted->l2_bytes, 10.0 * counted->dram_bytes_read);
}

// What `run --lesson matmul --counters` counts: every FP32 rung, one counted kernel each. The
// pipelined rung tunes its tile shape on its first launch; counted as it was, that first launch was
// a dozen kernels in one range and the whole lesson's counters were refused.
TEST_F(MatmulCountersGpu, EveryFp32RungIsCountedAsOneKernel) {
  std::vector<lessons::MatmulVariant> variants;
  for (const lessons::MatmulKernel kernel :
       {lessons::MatmulKernel::kNaive, lessons::MatmulKernel::kTiled,
        lessons::MatmulKernel::kRegtile2d, lessons::MatmulKernel::kWarptile,
        lessons::MatmulKernel::kPipelined}) {
    lessons::MatmulVariant variant;
    variant.kernel = kernel;
    variants.push_back(variant);
  }
  auto counted = compute::count_matmul(device(), {512, 512, 512}, variants, std::nullopt);
  SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
  ASSERT_EQ(counted->size(), variants.size());
  for (const compute::MatmulCountedKernel& k : *counted) {
    std::cout << device().info().name << ": " << k.variant.to_string() << ": DRAM read "
              << k.counters.dram_bytes_read << " B, L2 hit rate " << k.counters.l2_hit_rate << "\n";
    // A, B and C are 1 MiB each: every rung reads at least A and B once from L2.
    EXPECT_GE(k.counters.l2_bytes, 2.0 * 512 * 512 * 4) << k.variant.to_string();
  }
}

}  // namespace
}  // namespace tl::testing
