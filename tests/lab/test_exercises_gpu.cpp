// Every exercise on the GPU through `threadlab worker`: the solution passes, the starter fails,
// each known-wrong submission fails with the words it must. (tests/gpu/test_lab_isolation_gpu.cpp:
// faulting and endless kernels cost only their workers.)
#include <gtest/gtest.h>

#include <cstdlib>

#include "lab/exercise_registry.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/lab_check.hpp"

namespace tl::lab {
namespace {

bool gpu_present(std::string& why) {
  const auto driver = CudaDriver::load();
  if (!driver) {
    why = driver.error().message;
    return false;
  }
  int count = 0;
  if ((*driver)->init(0) != 0 || (*driver)->device_get_count(&count) != 0 || count == 0) {
    why = "no CUDA device";
    return false;
  }
  return true;
}

LabOptions gpu_options() {
  LabOptions options;
  options.backend = LabBackend::kGpu;
  // On the GPU machine the binaries sit elsewhere than where they were built.
  const char* executable = std::getenv("THREADLAB_EXECUTABLE");
  options.worker_executable = executable != nullptr ? executable : THREADLAB_EXECUTABLE;
  options.cache_dir = ::testing::TempDir() + "threadlab-lab-cache";
  options.timed_repeats = 0;
  options.compare_with_solution = false;
  return options;
}

bool says_one_of(const std::string& reason, const std::string& alternatives) {
  std::size_t start = 0;
  while (start <= alternatives.size()) {
    const std::size_t bar = alternatives.find('|', start);
    const std::string words = alternatives.substr(start, bar - start);
    if (!words.empty() && reason.find(words) != std::string::npos) return true;
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return false;
}

class ExerciseOnGpu : public ::testing::TestWithParam<const Exercise*> {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpu_present(why)) GTEST_SKIP() << why;
  }
};

TEST_P(ExerciseOnGpu, SolutionPassesStarterFailsWrongOnesSayWhy) {
  const Exercise& e = *GetParam();
  const CheckVerdict solved = check_submission(e, e.solution, gpu_options());
  EXPECT_EQ(solved.outcome, Outcome::kPassed) << solved.reason << "\n" << solved.compiler_log;
  const CheckVerdict started = check_submission(e, e.starter, gpu_options());
  EXPECT_EQ(started.outcome, Outcome::kFailed) << started.reason;
  for (const KnownWrongSubmission& wrong : e.known_wrong) {
    const CheckVerdict verdict = check_submission(e, wrong.source, gpu_options());
    EXPECT_EQ(verdict.outcome, Outcome::kFailed) << wrong.path << ": " << verdict.reason;
    EXPECT_TRUE(says_one_of(verdict.reason, wrong.expected_words))
        << wrong.path << ": the verdict \"" << verdict.reason << "\" does not say \""
        << wrong.expected_words << "\"";
  }
}

TEST_P(ExerciseOnGpu, ThePlainBuildIsTimedAgainstTheSolutionInTheSameRun) {
  const Exercise& e = *GetParam();
  LabOptions options = gpu_options();
  options.timed_repeats = 3;
  options.compare_with_solution = true;
  const CheckVerdict verdict = check_submission(e, e.solution, options);
  ASSERT_EQ(verdict.outcome, Outcome::kPassed) << verdict.reason;
  EXPECT_GT(verdict.kernel_ms, 0.0);
  EXPECT_FALSE(verdict.timed_case.empty());
  // The solution against itself: compiled once more (a different source hash is not needed, the
  // same one is cached), timed in the same worker.
  EXPECT_EQ(verdict.solution_ms, 0.0) << "the solution is not compared with itself";
}

INSTANTIATE_TEST_SUITE_P(Lab, ExerciseOnGpu,
                         ::testing::ValuesIn(registered_exercises().begin(),
                                             registered_exercises().end()),
                         [](const auto& info) {
                           std::string name = info.param->id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace tl::lab
