// Hardware counters through CUPTI on a real GPU: the lessons count their compared kernels, and
// counting says why where it cannot (a kernel of known traffic and one re-reading L2 are the
// vector-add and matrix-multiply lessons' own tests, lessons/01_vector_add/tests/gpu/ and
// lessons/04_matmul/tests/gpu/). Where the driver or the user does not allow counters, the tests
// skip and say why; a missing CUPTI library is an error value naming what was tried.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "compute/cuda/cupti_counters.hpp"
#include "compute/hardware_counters.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/run_support.hpp"
#include "counters_test_support.hpp"
#include "gpu_test_environment.hpp"

namespace tl::testing {
namespace {

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
