// Every exercise on the CPU emulator through `threadlab worker`: the solution passes, the starter
// fails, each known-wrong submission fails with the words it must — the same judgement as on the
// GPU (test_exercises_gpu.cpp), with the kernels built by the system C++ compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "lab/exercise_registry.hpp"
#include "lab/lab_check.hpp"

namespace tl::lab {
namespace {

LabOptions emulator_options() {
  LabOptions options;
  options.backend = LabBackend::kEmulator;
  const char* executable = std::getenv("THREADLAB_EXECUTABLE");
  options.worker_executable = executable != nullptr ? executable : THREADLAB_EXECUTABLE;
  options.cache_dir = ::testing::TempDir() + "threadlab-lab-emulator-cache";
  options.timed_repeats = 0;
  options.compare_with_solution = false;
  // Hidden checks of 2^20 elements, traced, on a loaded 2-core machine.
  options.timeout = std::chrono::milliseconds(20000);
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

class ExerciseOnEmulator : public ::testing::TestWithParam<const Exercise*> {};

TEST_P(ExerciseOnEmulator, SolutionPassesStarterFailsWrongOnesSayWhy) {
  const Exercise& e = *GetParam();
  const CheckVerdict solved = check_submission(e, e.solution, emulator_options());
  if (solved.outcome == Outcome::kUnavailable) GTEST_SKIP() << solved.reason;
  EXPECT_EQ(solved.outcome, Outcome::kPassed) << solved.reason << "\n" << solved.compiler_log;
  const CheckVerdict started = check_submission(e, e.starter, emulator_options());
  EXPECT_EQ(started.outcome, Outcome::kFailed) << started.reason << "\n" << started.compiler_log;
  for (const KnownWrongSubmission& wrong : e.known_wrong) {
    const CheckVerdict verdict = check_submission(e, wrong.source, emulator_options());
    EXPECT_EQ(verdict.outcome, Outcome::kFailed) << wrong.path << ": " << verdict.reason << "\n"
                                                 << verdict.compiler_log;
    EXPECT_TRUE(says_one_of(verdict.reason, wrong.expected_words))
        << wrong.path << ": the verdict \"" << verdict.reason << "\" does not say \""
        << wrong.expected_words << "\"";
  }
}

INSTANTIATE_TEST_SUITE_P(Lab, ExerciseOnEmulator,
                         ::testing::ValuesIn(registered_exercises().begin(),
                                             registered_exercises().end()),
                         [](const auto& info) {
                           std::string name = info.param->id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace tl::lab
