// The subcommands' real behaviour, seen from outside: what `threadlab` prints and how it exits.
// Every test that depends on the device forces `--backend emulator`, so the results are the same
// on a laptop, on CI and on the GPU machine.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The line of `text` that contains `key`, or "" when none does.
std::string line_with(const std::string& text, const std::string& key) {
  for (const std::string& line : split_lines(text)) {
    if (line.find(key) != std::string::npos) return line;
  }
  return "";
}

TEST(CliLessons, ListsVectorAdd) {
  const ProcessResult r = run_threadlab({"lessons"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("vector-add")) << r.describe();
  EXPECT_EQ(r.err, "") << r.describe();
}

TEST(CliInfo, EmulatorPrintsDeviceTableAndBackendWithReason) {
  const ProcessResult r = run_threadlab({"info", "--backend", "emulator"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();

  // The article's per-block limit, on one row of the device table.
  const std::string limit = line_with(r.out, "max threads per block");
  ASSERT_FALSE(limit.empty()) << r.describe();
  EXPECT_THAT(limit, HasSubstr("1024")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("warp size")) << r.describe();

  const std::string chosen = line_with(r.out, "chosen");
  EXPECT_THAT(chosen, HasSubstr("CPU emulator")) << r.describe();
  // A reason that says something, not just the key.
  const std::string reason = line_with(r.out, "reason");
  ASSERT_FALSE(reason.empty()) << r.describe();
  const std::size_t after_key = reason.find("reason") + std::string("reason").size();
  EXPECT_NE(reason.find_first_not_of(' ', after_key), std::string::npos) << r.describe();
}

TEST(CliRun, CoveringGridPassesCheck) {
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--grid", "4", "--block",
                     "256", "--check", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED"))) << r.describe();
}

TEST(CliRun, TooSmallGridFailsCheckAtFirstUncoveredIndex) {
  // 3 blocks × 256 threads cover elements 0..767: element 768 is the first nobody computed.
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--grid", "3", "--block",
                     "256", "--check", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.out + r.err, HasSubstr("index 768")) << r.describe();
  // 1000 - 768 elements were never written.
  EXPECT_THAT(r.out + r.err, HasSubstr("232 wrong")) << r.describe();
}

// Per cli.hpp, every failure ends in one line on stderr; a failed check is a failure (exit 1).
TEST(CliRun, FailedCheckEndsWithOneLineOnStderr) {
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--grid", "3", "--block",
                     "256", "--check", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("768")) << r.describe();
}

TEST(CliRun, SingleBlockBeyondLimitReportsTheLaunchError) {
  // The article's <<<1, N>>> with N over the 1024-thread limit: CUDA's own error, as one line.
  const ProcessResult r =
      run_threadlab({"run", "--single-block", "--n", "2048", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("invalid configuration argument")) << r.describe();
}

TEST(CliRun, TwoDimensionalBlockBeyondLimitIsLaunchedAndReportsTheLaunchError) {
  // 2000 x 2000 threads in one block: each dimension may look plausible, the product is not. It is
  // launched anyway, as the lesson wants, and fails with CUDA's wording and the reason.
  const ProcessResult r =
      run_threadlab({"run", "--n", "1000", "--block", "2000,2000", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("invalid configuration argument")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("threads per block")) << r.describe();
}

TEST(CliRun, BlockBeyondLimitReportsTheLaunchError) {
  // Same lesson with --block: an invalid configuration is launched, not refused, so the user
  // sees what CUDA says.
  const ProcessResult r =
      run_threadlab({"run", "--n", "4096", "--block", "2048", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("invalid configuration argument")) << r.describe();
}

TEST(CliBench, CsvHasHeaderAndOneRowPerSize) {
  const ProcessResult r = run_threadlab({"bench", "--sizes", "2^10,2^12", "--format", "csv",
                                         "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("lesson,backend,size,grid,block,emulated_kernel_cpu_ms,")) << r.describe();
  const auto columns = std::count(lines[0].begin(), lines[0].end(), ',');
  EXPECT_TRUE(lines[1].starts_with("vector-add,emulator,1024,")) << r.describe();
  EXPECT_TRUE(lines[2].starts_with("vector-add,emulator,4096,")) << r.describe();
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(std::count(lines[i].begin(), lines[i].end(), ','), columns)
        << "row " << i << " does not match the header\n"
        << r.describe();
  }
}

TEST(CliBench, JsonIsValidWithOnePointPerSize) {
  const ProcessResult r = run_threadlab({"bench", "--sizes", "2^10,2^12", "--format", "json",
                                         "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  EXPECT_EQ(doc.value("backend", ""), "emulator") << r.describe();
  ASSERT_TRUE(doc.contains("points") && doc["points"].is_array()) << r.describe();
  ASSERT_EQ(doc["points"].size(), 2u) << r.describe();
  EXPECT_EQ(doc.value("lesson", ""), "vector-add") << r.describe();
  EXPECT_EQ(doc["points"][0].value("size", 0u), 1024u) << r.describe();
  EXPECT_EQ(doc["points"][1].value("size", 0u), 4096u) << r.describe();
  for (const auto& point : doc["points"]) {
    // One timed run per point: the emulated kernel was measured, with a real number, and checked.
    ASSERT_TRUE(point.contains("timings") && point["timings"].is_array()) << point.dump();
    const auto& kernel = point["timings"][0];
    EXPECT_EQ(kernel.value("name", ""), "Emulated kernel (CPU)") << point.dump();
    EXPECT_EQ(kernel["stats"].value("repeats", 0), 1) << point.dump();
    EXPECT_GE(kernel["stats"].value("median_ms", -1.0), 0.0) << point.dump();
    EXPECT_TRUE(point.value("check_passed", false)) << point.dump();
  }
}

}  // namespace
}  // namespace tl::cli_test
