// Every exercise on the CPU emulator through `threadlab worker`: the solution passes, the starter
// fails, each known-wrong submission fails with the words it must — the same judgement as on the
// GPU (test_exercises_gpu.cpp), with the kernels built by the system C++ compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
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
  // CI keeps this cache from run to run (THREADLAB_TEST_LAB_CACHE, set by .ci/run): its objects
  // are keyed by the source, the headers, the flags and the compiler, so a reused one is the same
  // build. Compiling cold is tested by tests/lab_emulator (LearnerKernel cache tests).
  const char* shared_cache = std::getenv("THREADLAB_TEST_LAB_CACHE");
  options.cache_dir = shared_cache != nullptr && *shared_cache != '\0'
                          ? std::string(shared_cache) + "/exercises-emulator"
                          : ::testing::TempDir() + "threadlab-lab-emulator-cache";
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

namespace tl::lab {
namespace {

// Every thread of a block writes one shared word with no barrier anywhere: the values come out
// right, and only the emulator's race check can say what is wrong.
TEST(LabOnEmulator, ASharedMemoryRaceFailsEvenWithRightValuesAndNamesBothThreads) {
  const Exercise& e = *find_exercise("vector-add");
  const std::string racy = R"(
__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  __shared__ int last_thread;
  last_thread = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Read back, so the compiler keeps the store; never negative, so the sum is unchanged.
  if (i < n) c[i] = a[i] + b[i] + (last_thread < 0 ? 1.0f : 0.0f);
}
)";
  const CheckVerdict verdict = check_submission(e, racy, emulator_options());
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  EXPECT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason;
  EXPECT_NE(verdict.reason.find("shared-memory race"), std::string::npos) << verdict.reason;
  EXPECT_NE(verdict.reason.find("last_thread"), std::string::npos) << verdict.reason;
}

// Without its guard, the spare threads of the last block read a and b and write c past their
// ends. Every one of them is flagged, and no other thread: the picture draws exactly those as
// out of range (issue 36 item 5), where it drew them as idle.
TEST(LabOnEmulator, EveryThreadThatWentPastTheEndIsFlaggedAndNoOther) {
  const Exercise& e = *find_exercise("vector-add");
  const KnownWrongSubmission* missing_guard = nullptr;
  for (const KnownWrongSubmission& wrong : e.known_wrong) {
    if (wrong.path.find("missing_guard") != std::string::npos) missing_guard = &wrong;
  }
  ASSERT_NE(missing_guard, nullptr);
  const CheckVerdict verdict = check_submission(e, missing_guard->source, emulator_options());
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  ASSERT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason;
  std::size_t failed_cases = 0;
  for (const CaseResult& c : verdict.cases) {
    const std::uint64_t elements = static_cast<std::uint64_t>(c.rows * c.cols);
    const std::uint64_t threads = c.launch.grid.volume() * c.launch.block.volume();
    if (threads == elements) {
      EXPECT_TRUE(c.threads_outside.empty()) << c.label << ": no spare thread, none strays";
      continue;
    }
    ++failed_cases;
    ASSERT_EQ(c.threads_outside.size(), threads - elements) << c.label;
    for (std::uint64_t k = 0; k < c.threads_outside.size(); ++k) {
      EXPECT_EQ(c.threads_outside[k], elements + k) << c.label;
    }
  }
  EXPECT_GT(failed_cases, 0u) << "some hidden case has spare threads";
  // The access is named with its line in the learner's file, for the editor's mark: the
  // submission's `c[i] = a[i] + b[i];` is its line 4 (the file starts with its `// expect:` line).
  const auto failed = std::find_if(verdict.cases.begin(), verdict.cases.end(),
                                   [](const CaseResult& c) { return !c.passed; });
  ASSERT_NE(failed, verdict.cases.end());
  EXPECT_EQ(failed->line, 4) << failed->message;
  EXPECT_NE(verdict.reason.find("(line 4)"), std::string::npos) << verdict.reason;
  // The right kernel strays nowhere.
  const CheckVerdict right = check_submission(e, e.solution, emulator_options());
  for (const CaseResult& c : right.cases) EXPECT_TRUE(c.threads_outside.empty()) << c.label;
}

// The tiled product without its second __syncthreads: a thread's next tile overwrites words
// others still read. The values come out wrong, and the verdict says first that it is a race and
// which two threads, then what this run computed.
TEST(LabOnEmulator, AMissingSecondBarrierIsCalledARaceNamingBothThreads) {
  const Exercise& e = *find_exercise("matmul-tiled");
  std::string racy = e.solution;
  const std::string second_barrier =
      "    __syncthreads();  // everyone is done with these tiles before the next step "
      "overwrites them\n";
  const std::size_t at = racy.find(second_barrier);
  ASSERT_NE(at, std::string::npos) << "the solution's second barrier, as the test knows it";
  racy.erase(at, second_barrier.size());
  const CheckVerdict verdict = check_submission(e, racy, emulator_options());
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  ASSERT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason;
  EXPECT_NE(verdict.reason.find("shared-memory race"), std::string::npos) << verdict.reason;
  const std::size_t first = verdict.reason.find("thread (");
  ASSERT_NE(first, std::string::npos) << verdict.reason;
  EXPECT_NE(verdict.reason.find("thread (", first + 1), std::string::npos)
      << "both threads named: " << verdict.reason;
  EXPECT_NE(verdict.reason.find("_tile"), std::string::npos)
      << "the tile named: " << verdict.reason;
  EXPECT_LT(verdict.reason.find("race"), verdict.reason.find("expected"))
      << "the race comes before the wrong values it explains: " << verdict.reason;
}

// Lesson 10's find-and-fix starters fail the way their statements say the learner sees it.
TEST(LabOnEmulator, TheFindAndFixStartersFailAsTheirStatementsSay) {
  // The missing guard: every case names a thread reading `in` past its end, with the line.
  const CheckVerdict guard = check_submission(
      *find_exercise("fix-guard"), find_exercise("fix-guard")->starter, emulator_options());
  if (guard.outcome == Outcome::kUnavailable) GTEST_SKIP() << guard.reason;
  ASSERT_EQ(guard.outcome, Outcome::kFailed) << guard.reason;
  for (const CaseResult& c : guard.cases) {
    EXPECT_FALSE(c.passed) << c.label;
    EXPECT_NE(c.message.find("past its end"), std::string::npos) << c.message;
    EXPECT_GT(c.line, 0) << c.message;
  }
  const auto n_1000 = std::find_if(guard.cases.begin(), guard.cases.end(),
                                   [](const CaseResult& c) { return c.label == "n = 1000"; });
  ASSERT_NE(n_1000, guard.cases.end());
  EXPECT_NE(n_1000->message.find("block (3,0) thread (232,0) read in[1000], past its end"),
            std::string::npos)
      << n_1000->message;

  // The race: right values (every case but the race's own report), and the race names the tile.
  const CheckVerdict race = check_submission(
      *find_exercise("fix-race"), find_exercise("fix-race")->starter, emulator_options());
  ASSERT_EQ(race.outcome, Outcome::kFailed) << race.reason;
  EXPECT_NE(race.reason.find("shared-memory race"), std::string::npos) << race.reason;
  EXPECT_NE(race.reason.find("thread (1, 0, 0) reads __shared__ tile (in difference), byte 4 "
                             "(word 1), which thread (0, 0, 0) wrote"),
            std::string::npos)
      << race.reason;
  for (const CaseResult& c : race.cases) {
    if (c.passed) continue;
    EXPECT_NE(c.message.find("race"), std::string::npos) << "not wrong values: " << c.message;
    EXPECT_TRUE(c.wrong_elements.empty()) << c.label << ": the values are right";
  }

  // The missing halo: one block passes, and from 1000 on the first element of block 1 is wrong.
  const CheckVerdict halo = check_submission(
      *find_exercise("fix-halo"), find_exercise("fix-halo")->starter, emulator_options());
  ASSERT_EQ(halo.outcome, Outcome::kFailed) << halo.reason;
  for (const CaseResult& c : halo.cases) {
    const bool one_block = c.launch.grid.x == 1;
    EXPECT_EQ(c.passed, one_block) << c.label << ": " << c.message;
    if (!one_block) {
      EXPECT_EQ(c.message.rfind("out[256] is ", 0), 0u) << c.message;
      EXPECT_NE(c.message.find("(written by block (1,0) thread (0,0))"), std::string::npos)
          << c.message;
    }
  }
}

// A check on the emulator times the plain build a few times (for their spread) and says where it
// ran.
TEST(LabOnEmulator, APassingKernelIsTimedAFewTimesAndLabelledAsTheEmulator) {
  const Exercise& e = *find_exercise("vector-add");
  LabOptions options = emulator_options();
  options.timed_repeats = 5;
  const CheckVerdict verdict = check_submission(e, e.solution, options);
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  ASSERT_EQ(verdict.outcome, Outcome::kPassed) << verdict.reason;
  EXPECT_GT(verdict.kernel_ms, 0.0);
  EXPECT_EQ(verdict.kernel_runs_ms.size(), static_cast<std::size_t>(kEmulatorTimedRepeats));
  EXPECT_NE(verdict.device.find("emulator"), std::string::npos) << verdict.device;
  // The memory ceiling, measured in the same worker: a, b and c of the largest case, 4 bytes each.
  EXPECT_EQ(verdict.timed_case, "n = 1048583");
  EXPECT_EQ(verdict.moved_bytes, 3u * 1048583u * 4u);
  EXPECT_GT(verdict.copy_ms, 0.0);
  EXPECT_EQ(verdict.copy_ceiling, "memcpy on one CPU thread");
  EXPECT_EQ(verdict.flops, 0.0);  // vector add counts no arithmetic
}

// A Run is the example case alone, with the learner's grid: too few blocks leave elements nobody
// wrote, and the verdict says so without claiming anything about the hidden checks.
TEST(LabOnEmulator, ARunIsTheExampleCaseWithTheLearnersGrid) {
  const Exercise& e = *find_exercise("vector-add");
  LabOptions options = emulator_options();
  options.run_only = true;
  const CheckVerdict right = check_submission(e, e.solution, options);
  if (right.outcome == Outcome::kUnavailable) GTEST_SKIP() << right.reason;
  ASSERT_EQ(right.outcome, Outcome::kPassed) << right.reason;
  EXPECT_TRUE(right.run_only);
  ASSERT_EQ(right.cases.size(), 1u);
  EXPECT_EQ(right.cases[0].label, "n = 1000");
  EXPECT_EQ(right.reason, "ran on n = 1000 with <<<4, 256>>>: every output is right");
  EXPECT_EQ(right.cases[0].trace.size(), 1000u);

  options.grid = Dim3{2, 1, 1};
  const CheckVerdict short_grid = check_submission(e, e.solution, options);
  ASSERT_EQ(short_grid.outcome, Outcome::kFailed) << short_grid.reason;
  EXPECT_NE(short_grid.reason.find("<<<2, 256>>>"), std::string::npos) << short_grid.reason;
  EXPECT_NE(short_grid.reason.find("no thread wrote it"), std::string::npos) << short_grid.reason;
  // The grid-stride solution covers the same case with the same two blocks.
  const Exercise& stride = *find_exercise("grid-stride");
  const CheckVerdict strided = check_submission(stride, stride.solution, options);
  EXPECT_EQ(strided.outcome, Outcome::kPassed) << strided.reason;
}

// The compiler's word after a pass (LabOptions::inspect_compiled, NVRTC in a worker of its own):
// a kernel capped by its __launch_bounds__ spills and is told so, the solution is not warned.
TEST(LabOnEmulator, APassingKernelThatSpillsIsWarnedAndTheSolutionIsNot) {
  LabOptions options = emulator_options();
  options.inspect_compiled = true;
  const Exercise& exercise = *find_exercise("vector-add");
  // Where it was built, or, on the GPU machine, the copy of the tree it runs in.
  std::ifstream in(THREADLAB_TEST_DATA "/vector_add_spills.cu");
  if (!in) in.open("tests/lab/data/vector_add_spills.cu");
  std::stringstream spilling;
  spilling << in.rdbuf();
  ASSERT_FALSE(spilling.str().empty());
  const CheckVerdict warned = check_submission(exercise, spilling.str(), options);
  ASSERT_EQ(warned.outcome, Outcome::kPassed) << warned.reason;
  ASSERT_TRUE(warned.compiled.has_value());
  if (!warned.compiled->unavailable.empty()) GTEST_SKIP() << warned.compiled->unavailable;
  EXPECT_GT(warned.compiled->spill_store_bytes, 0);
  ASSERT_FALSE(warned.compiled->warnings.empty());
  EXPECT_NE(warned.compiled->warnings.front().find("spill"), std::string::npos);
  const CheckVerdict quiet = check_submission(exercise, exercise.solution, options);
  ASSERT_EQ(quiet.outcome, Outcome::kPassed) << quiet.reason;
  ASSERT_TRUE(quiet.compiled.has_value());
  EXPECT_TRUE(quiet.compiled->unavailable.empty()) << quiet.compiled->unavailable;
  EXPECT_EQ(quiet.compiled->spill_store_bytes, 0);
  EXPECT_TRUE(quiet.compiled->warnings.empty());
}

}  // namespace
}  // namespace tl::lab
