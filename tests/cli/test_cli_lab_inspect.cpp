// `threadlab lab inspect` and the check's word on what the compiler made: NVRTC in the Lab's
// sandboxed worker, no GPU needed (skipped, saying so, where NVRTC is missing; the SASS parts
// where the toolkit's disassembler is).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;

const std::string kSpilling = THREADLAB_TEST_DATA "/vector_add_spills.cu";

#define REQUIRE_NVRTC(result)                            \
  if ((result).exited && (result).exit_code == 1 &&      \
      (result).err.find("NVRTC") != std::string::npos) { \
    GTEST_SKIP() << (result).err;                        \
  }

TEST(CliLabInspect, ResourcesOfAKernelThatSpillsNameTheSpillAndItsLaunchBounds) {
  const ProcessResult r =
      run_threadlab({"lab", "inspect", kSpilling, "--exercise", "vector-add", "--format", "json"});
  REQUIRE_NVRTC(r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto row = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(row.is_object()) << r.describe();
  EXPECT_EQ(row["arch"], "sm_90");
  EXPECT_LE(row["registers"].get<int>(), 32) << row.dump();
  EXPECT_GT(row["spill_store_bytes"].get<int>(), 0) << row.dump();
  ASSERT_FALSE(row["warnings"].empty()) << row.dump();
  EXPECT_THAT(row["warnings"][0].get<std::string>(), HasSubstr("Line 4's __launch_bounds__"));
  EXPECT_THAT(row["warnings"][0].get<std::string>(), HasSubstr("vector_add_spills.cu"));
}

TEST(CliLabInspect, SassPutsEachLineOfTheLearnersFileAboveItsInstructions) {
  const ProcessResult r =
      run_threadlab({"lab", "inspect", kSpilling, "--exercise", "vector-add", "--sass"});
  REQUIRE_NVRTC(r);
  if (r.exited && r.exit_code == 1 && r.err.find("no SASS") != std::string::npos) {
    GTEST_SKIP() << r.err;
  }
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("// vector_add (sm_90)"));
  // Line 10 of the file, the loop that keeps 48 values, with its text.
  EXPECT_THAT(r.out, HasSubstr("vector_add_spills.cu:10  for (int j = 0; j < 48; ++j) kept[j]"));
  EXPECT_THAT(r.out, HasSubstr("; local store"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("kernel.cu"))) << "the learner's own file name";
}

TEST(CliLabInspect, PtxForAnotherArchitectureNamesIt) {
  const ProcessResult r = run_threadlab(
      {"lab", "inspect", kSpilling, "--exercise", "vector-add", "--ptx", "--arch", "sm_80"});
  REQUIRE_NVRTC(r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr(".entry"));
  EXPECT_THAT(r.out, HasSubstr("vector_add_spills.cu:"));
}

TEST(CliLabInspect, BadRequestsAreUsageErrorsAndABrokenKernelIsItsCompilersLog) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"lab", "inspect", kSpilling, "--exercise", "no-such"},
        {"lab", "inspect", kSpilling, "--exercise", "vector-add", "--arch", "sm_9x"},
        {"lab", "inspect", kSpilling, "--exercise", "vector-add", "--ptx", "--format", "json"},
        {"lab", "inspect", kSpilling, "--exercise", "vector-add", "--ptx", "--sass"},
        {"lab", "inspect", "/no/such/file.cu", "--exercise", "vector-add"}}) {
    const ProcessResult r = run_threadlab(args);
    EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe();
    EXPECT_THAT(r.err, HasSubstr("threadlab: "));
  }
}

TEST(CliLabCheck, APassingKernelThatSpillsIsWarnedUnlessAskedNotTo) {
  const ProcessResult r =
      run_threadlab({"lab", "check", kSpilling, "--exercise", "vector-add", "--backend", "emulator",
                     "--no-compare", "--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto verdict = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(verdict.is_object()) << r.describe();
  ASSERT_TRUE(verdict["compiled"].is_object()) << r.out;
  if (verdict["compiled"].contains("unavailable")) {
    GTEST_SKIP() << verdict["compiled"]["unavailable"].get<std::string>();
  }
  EXPECT_GT(verdict["compiled"]["spill_store_bytes"].get<int>(), 0);
  EXPECT_FALSE(verdict["compiled"]["warnings"].empty());
  const ProcessResult quiet =
      run_threadlab({"lab", "check", kSpilling, "--exercise", "vector-add", "--backend", "emulator",
                     "--no-compare", "--no-compiler-feedback"});
  ASSERT_TRUE(quiet.exited && quiet.exit_code == 0) << quiet.describe();
  EXPECT_THAT(quiet.out, ::testing::Not(HasSubstr("spill")));
  EXPECT_THAT(quiet.out, ::testing::Not(HasSubstr("compiled:")));
}

}  // namespace
}  // namespace tl::cli_test
