// Every exercise on the GPU through `threadlab worker`: the solution passes, the starter fails,
// each known-wrong submission fails with the words it must. (tests/gpu/test_lab_isolation_gpu.cpp:
// faulting and endless kernels cost only their workers.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

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
  EXPECT_EQ(verdict.solution_ms, 0.0) << "the solution is not compared with itself";
  if (!e.library_reference.empty()) {
    EXPECT_GT(verdict.library_ms, 0.0) << e.library_reference << " was not timed";
    EXPECT_EQ(verdict.library, e.library_reference);
  }
}

// The GPU's traced build flags every thread that went outside an array, as the emulator's does
// (the picture draws those as out of range, not idle), and names the line of the access: the
// prelude's per-thread flags and __builtin_LINE() through NVRTC.
TEST(LabOnGpu, EveryThreadThatWentPastTheEndIsFlaggedWithTheLine) {
  std::string why;
  if (!gpu_present(why)) GTEST_SKIP() << why;
  const Exercise& e = *find_exercise("vector-add");
  const KnownWrongSubmission* missing_guard = nullptr;
  for (const KnownWrongSubmission& wrong : e.known_wrong) {
    if (wrong.path.find("missing_guard") != std::string::npos) missing_guard = &wrong;
  }
  ASSERT_NE(missing_guard, nullptr);
  const CheckVerdict verdict = check_submission(e, missing_guard->source, gpu_options());
  ASSERT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason << "\n" << verdict.compiler_log;
  std::size_t with_spare_threads = 0;
  for (const CaseResult& c : verdict.cases) {
    const std::uint64_t elements = static_cast<std::uint64_t>(c.rows * c.cols);
    const std::uint64_t threads = c.launch.grid.volume() * c.launch.block.volume();
    if (threads == elements) continue;
    ++with_spare_threads;
    ASSERT_EQ(c.threads_outside.size(), threads - elements) << c.label;
    for (std::uint64_t k = 0; k < c.threads_outside.size(); ++k) {
      EXPECT_EQ(c.threads_outside[k], elements + k) << c.label;
    }
  }
  EXPECT_GT(with_spare_threads, 0u);
  EXPECT_NE(verdict.reason.find("(line 4)"), std::string::npos) << verdict.reason;
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

namespace tl::lab {
namespace {

// A learner's own tiled matrix multiply (pointers, a 32-wide tile): timed against the reference
// solution and cuBLAS SGEMM on the same buffers, in the same worker.
TEST(LabTiming, ALearnersTiledMatmulIsTimedAgainstOursAndCublas) {
  std::string why;
  if (!gpu_present(why)) GTEST_SKIP() << why;
  const Exercise& e = *find_exercise("matmul-tiled");
  const std::string learner = R"(
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float a[16][17];
  __shared__ float b[16][17];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    a[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    b[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    #pragma unroll
    for (int k = 0; k < 16; ++k) sum += a[ty][k] * b[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
)";
  LabOptions options = gpu_options();
  options.timed_repeats = 5;
  options.compare_with_solution = true;
  const CheckVerdict verdict = check_submission(e, learner, options);
  ASSERT_EQ(verdict.outcome, Outcome::kPassed) << verdict.reason << "\n" << verdict.compiler_log;
  EXPECT_GT(verdict.kernel_ms, 0.0);
  EXPECT_GT(verdict.solution_ms, 0.0);
  EXPECT_GT(verdict.library_ms, 0.0);
  std::cout << "learner " << verdict.kernel_ms << " ms, ours " << verdict.solution_ms
            << " ms, cuBLAS " << verdict.library_ms << " ms on " << verdict.timed_case << "\n";
}

// The compiler's word after a pass (LabOptions::inspect_compiled, NVRTC in a worker of its own):
// a kernel capped by its __launch_bounds__ spills and is told so, the solution is not warned.
TEST(LabTiming, APassingKernelThatSpillsIsWarnedAndTheSolutionIsNot) {
  std::string why;
  if (!gpu_present(why)) GTEST_SKIP() << why;
  LabOptions options = gpu_options();
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
  // Compiled for the device it ran on.
  EXPECT_NE(quiet.device.find("(" + quiet.compiled->arch + ")"), std::string::npos)
      << quiet.device << " / " << quiet.compiled->arch;
}

}  // namespace
}  // namespace tl::lab
