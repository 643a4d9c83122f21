// What device code may do on a GPU, checked on the CPU emulator through `threadlab worker`: printf
// (its output shown), assert and __trap() compile with no host header and end the kernel as a GPU
// would; static __shared__ past a block's 48 KiB is refused as a GPU's compiler refuses it; an
// endless kernel is timed out twice before the verdict names the threads it ran.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
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
  options.cache_dir = ::testing::TempDir() + "threadlab-lab-device-code-cache";
  options.timed_repeats = 0;
  options.compare_with_solution = false;
  options.timeout = std::chrono::milliseconds(20000);
  return options;
}

const Exercise& vector_add() {
  const Exercise* exercise = find_exercise("vector-add");
  if (exercise == nullptr) std::abort();
  return *exercise;
}

// The vector-add solution with `code` run first by every thread, inside the kernel.
std::string solution_with(const std::string& code) {
  std::string source = vector_add().solution;
  const std::size_t body = source.find('{', source.find("__global__"));
  return source.insert(body + 1, "\n" + code + "\n");
}

CheckVerdict check(const std::string& source, LabOptions options = emulator_options()) {
  return check_submission(vector_add(), source, options);
}

TEST(EmulatorDeviceCode, PrintfNeedsNoHeaderAndItsOutputIsShown) {
  const CheckVerdict verdict = check(solution_with(
      "if (blockIdx.x == 0 && threadIdx.x == 0) printf(\"hello from block %d\\n\", 0);"));
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  EXPECT_EQ(verdict.outcome, Outcome::kPassed) << verdict.reason << "\n" << verdict.compiler_log;
  EXPECT_NE(verdict.printed.find("hello from block 0"), std::string::npos) << verdict.printed;
}

TEST(EmulatorDeviceCode, AFailedAssertEndsTheCheckLikeAGpuFault) {
  const CheckVerdict verdict = check(solution_with("assert(threadIdx.x < 0 && \"never\");"));
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  EXPECT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason << "\n" << verdict.compiler_log;
  EXPECT_TRUE(verdict.crashed) << verdict.reason;
  EXPECT_NE(verdict.printed.find("never"), std::string::npos) << verdict.printed;
}

TEST(EmulatorDeviceCode, TrapEndsTheCheckAndSaysSo) {
  const CheckVerdict verdict = check(solution_with("if (threadIdx.x == 5) __trap();"));
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  EXPECT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason << "\n" << verdict.compiler_log;
  EXPECT_TRUE(verdict.crashed) << verdict.reason;
  EXPECT_NE(verdict.printed.find("__trap()"), std::string::npos) << verdict.printed;
}

TEST(EmulatorDeviceCode, StaticSharedMemoryPastABlocksLimitIsRefusedLikeAGpu) {
  // Each thread reads its neighbour's element after the barrier: the compiler must keep the array.
  const auto using_shared = [](const std::string& declaration, const std::string& name) {
    return solution_with(
        declaration + "\n" + name + "[threadIdx.x] = (float)n;\n__syncthreads();\n" + "if (" +
        name + "[(threadIdx.x + 1) % blockDim.x] != (float)n) return;\n" + "__syncthreads();");
  };
  const CheckVerdict big = check(using_shared("__shared__ float big[64 << 20];", "big"));
  if (big.outcome == Outcome::kUnavailable) GTEST_SKIP() << big.reason;
  EXPECT_EQ(big.outcome, Outcome::kCompileError) << big.reason;
  EXPECT_NE(big.compiler_log.find("48 KiB"), std::string::npos) << big.compiler_log;
  EXPECT_NE(big.compiler_log.find("big"), std::string::npos) << big.compiler_log;
  // 48 KiB exactly is what a block may have.
  const CheckVerdict fits = check(using_shared("__shared__ float tile[12288];", "tile"));
  EXPECT_EQ(fits.outcome, Outcome::kPassed) << fits.reason << "\n" << fits.compiler_log;
}

// An endless kernel: timed out, tried once more in a fresh worker, and the verdict says on what
// and how many threads (a correct kernel on a huge grid times out too; the count tells them apart).
TEST(EmulatorTimeouts, AnEndlessKernelIsTriedTwiceAndTheThreadsAreNamed) {
  LabOptions options = emulator_options();
  options.timeout = std::chrono::milliseconds(300);
  const CheckVerdict verdict =
      check(solution_with("volatile int spin = 1;\nwhile (spin) {}"), options);
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  EXPECT_EQ(verdict.outcome, Outcome::kFailed) << verdict.reason;
  EXPECT_TRUE(verdict.timed_out) << verdict.reason;
  EXPECT_TRUE(std::regex_search(verdict.reason,
                                std::regex("timed out twice on the emulator with [0-9,]+ threads")))
      << verdict.reason;
}

// The worker compiles the learner's file as kernel.cu; what the compiler says of it names the
// learner's file instead, and only where kernel.cu is the file's name, not part of another word.
TEST(SubmissionText, CompilerMessagesNameTheLearnersFile) {
  EXPECT_EQ(with_learner_file_name("kernel.cu:2:11: error: expected primary-expression\n"
                                   "kernel.cu(3): error: identifier \"x\" is undefined\n"
                                   "In file included from kernel.cu:1:\n"
                                   "threadlab_lab.cuh:40: note: here\n"
                                   "mykernel.cu:1: kernel.cus kernel.cu.bak\n",
                                   "mine.cu"),
            "mine.cu:2:11: error: expected primary-expression\n"
            "mine.cu(3): error: identifier \"x\" is undefined\n"
            "In file included from mine.cu:1:\n"
            "threadlab_lab.cuh:40: note: here\n"
            "mykernel.cu:1: kernel.cus kernel.cu.bak\n");
  EXPECT_EQ(with_learner_file_name("kernel.cu does not compile", "a b.cu"),
            "a b.cu does not compile");
  EXPECT_EQ(with_learner_file_name("kernel.cu:1: x", "kernel.cu"), "kernel.cu:1: x");
}

// Text as editors save it: a byte order mark and CR line endings compile; bytes that are not
// UTF-8 are named at their line (they once threw out of the JSON wire and aborted the process).
TEST(SubmissionText, NormalizedOrRefusedAtItsLine) {
  Result<std::string> crlf = normalized_source(
      "\xEF\xBB\xBF"
      "a\r\nb\rc\n",
      "k.cu");
  ASSERT_TRUE(crlf);
  EXPECT_EQ(*crlf, "a\nb\nc\n");
  Result<std::string> latin1 = normalized_source("ok\r\nline two caf\xe9\n", "b.cu");
  ASSERT_FALSE(latin1);
  EXPECT_EQ(latin1.error().message, "b.cu line 2: not UTF-8 (save the file as UTF-8)");
  EXPECT_FALSE(normalized_source("\xC0\xAF", "x.cu"));                    // overlong '/'
  EXPECT_FALSE(normalized_source("\xED\xA0\x80", "x.cu"));                // a surrogate
  EXPECT_TRUE(normalized_source("// größer, 漢字, 🙂\n", "x.cu"));  // real UTF-8
  LabOptions options = emulator_options();
  options.source_name = "b.cu";
  const CheckVerdict verdict = check("// caf\xe9\n" + vector_add().solution, options);
  EXPECT_EQ(verdict.outcome, Outcome::kCompileError);
  EXPECT_EQ(verdict.reason, "b.cu line 1: not UTF-8 (save the file as UTF-8)");
}

TEST(SubmissionBlock, BlocksNoGpuLaunchesAreRefusedNotDividedBy) {
  for (const Dim3 block : {Dim3{0, 1, 1}, Dim3{1, 0, 1}, Dim3{1024, 1024, 1}, Dim3{1025, 1, 1}}) {
    const Status valid = validate_block(vector_add(), block);
    ASSERT_FALSE(valid) << to_string(block);
    EXPECT_NE(valid.message().find("a block holds 1 to 1024 threads"), std::string::npos);
    LabOptions options = emulator_options();
    options.block = block;
    const CheckVerdict verdict = check(vector_add().solution, options);
    EXPECT_EQ(verdict.outcome, Outcome::kFailed) << to_string(block);
  }
  EXPECT_FALSE(validate_block(vector_add(), Dim3{256, 2, 1}));
  EXPECT_TRUE(validate_block(vector_add(), Dim3{1024, 1, 1}));
  EXPECT_FALSE(validate_grid(Dim3{0, 1, 1}));
}

}  // namespace
}  // namespace tl::lab
