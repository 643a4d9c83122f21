// Hardware counters through CUPTI on a real GPU: a kernel of known traffic reports the DRAM bytes
// it must move, a kernel re-reading a buffer that fits in L2 hits there, and the lessons count
// their compared kernels. Where the driver or the user does not allow counters, the tests skip and
// say why; a missing CUPTI library is an error value naming what was tried.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "compute/cuda/cupti_counters.hpp"
#include "compute/hardware_counters.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/run_support.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul.hpp"

namespace tl::testing {
namespace {

// The reasons counters may honestly be missing on a machine (core/kernel_counters.cpp and
// cupti_counters.cpp write them): those skip; any other failure is a bug and fails.
bool counters_not_allowed_here(const std::string& why) {
  for (const char* reason : {"not permitted", "not installed", "not supported",
                             "not available on this GPU", "another profiler", "lacks it"}) {
    if (why.find(reason) != std::string::npos) return true;
  }
  return false;
}

#define SKIP_OR_FAIL_WITHOUT_COUNTERS(result)                                            \
  do {                                                                                   \
    if (!(result)) {                                                                     \
      if (counters_not_allowed_here((result).message())) {                               \
        GTEST_SKIP() << "hardware counters cannot be read here: " << (result).message(); \
      }                                                                                  \
      FAIL() << (result).message();                                                      \
    }                                                                                    \
  } while (false)

TEST(CuptiLibrary, ABogusPathIsAnErrorNamingIt) {
  const char* previous = std::getenv(compute::kCuptiLibraryVariable);
  const std::string saved = previous != nullptr ? previous : "";
  ::setenv(compute::kCuptiLibraryVariable, "/nonexistent/threadlab/libcupti.so.13", 1);
  const Status status = compute::cupti_library_status();
  if (previous != nullptr) {
    ::setenv(compute::kCuptiLibraryVariable, saved.c_str(), 1);
  } else {
    ::unsetenv(compute::kCuptiLibraryVariable);
  }
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("/nonexistent/threadlab/libcupti.so.13"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("not installed"), std::string::npos) << status.message();
}

class CountersGpu : public GpuTest {};

TEST_F(CountersGpu, ABogusCuptiPathMakesCountingSayWhy) {
  ::setenv(compute::kCuptiLibraryVariable, "/nonexistent/threadlab/libcupti.so.13", 1);
  bool launched = false;
  auto counted = compute::count_kernel(device(), [&] {
    launched = true;
    return Status::ok();
  });
  ::unsetenv(compute::kCuptiLibraryVariable);
  ASSERT_FALSE(counted.is_ok());
  EXPECT_FALSE(launched);
  EXPECT_NE(counted.message().find("CUPTI"), std::string::npos) << counted.message();
}

// A vector add of 2^26 floats reads 512 MiB and writes 256 MiB, far more than any L2 holds: DRAM
// must move all of it, once.
TEST_F(CountersGpu, AKernelOfKnownTrafficReportsItsDramBytes) {
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

// The naive product of two 512 × 512 matrices reads every element of A and B 512 times; the 3 MiB
// of A, B and C fit in the L2 of every GPU ThreadLab runs on, so nearly every L2 lookup hits.
TEST_F(CountersGpu, AKernelRereadingASmallBufferHitsInL2) {
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

TEST_F(CountersGpu, WorkLaunchingNoKernelIsRefusedWithAReason) {
  auto counted = compute::count_kernel(device(), [] { return Status::ok(); });
  ASSERT_FALSE(counted.is_ok());
  if (counters_not_allowed_here(counted.message())) {
    GTEST_SKIP() << "hardware counters cannot be read here: " << counted.message();
  }
  EXPECT_NE(counted.message().find("launched 0 kernels"), std::string::npos) << counted.message();
}

// Both lessons that compare kernels count each one under its timing row's key.
TEST_F(CountersGpu, TheLessonsCountTheKernelsTheyCompare) {
  for (const auto& [id, keys] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"2d-blocks", {"kernel/x-to-col", "kernel/x-to-row"}},
           {"matmul", {"kernel/naive", "kernel/tiled"}}}) {
    auto lesson = compute::make_lesson(id);
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    compute::CountingLesson* counting = compute::counting_lesson(**lesson);
    ASSERT_NE(counting, nullptr) << id;
    auto counted = counting->run_counted(device());
    SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
    for (const std::string& key : keys) {
      const auto found = std::find_if(counted->begin(), counted->end(),
                                      [&](const CountedKernel& k) { return k.key == key; });
      ASSERT_NE(found, counted->end()) << id << " did not count " << key;
      EXPECT_GT(found->counters.l2_bytes, 0.0) << key;
      EXPECT_GT(found->ideal_bytes, 0.0) << key;
      std::cout << id << " " << found->name << ": " << describe_counters(*found) << '\n';
    }
  }
}

}  // namespace
}  // namespace tl::testing
