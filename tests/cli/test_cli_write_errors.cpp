// Faults a person meets on their own machine: a full disk under an output file is an exit 1 with
// the reason (F9 of the reliability review), a size too big for memory is refused before anything
// is allocated (F6), and a headless link never replaces the learner's Lab files (F1).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CliWriteErrors, RenderToAFullDiskIsExitOneWithTheReason) {
  const ProcessResult r = run_threadlab({"render", "--backend", "emulator", "--out", "/dev/full"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("No space left on device")) << r.describe();
}

TEST(CliWriteErrors, TrainingCurvesToAFullDiskIsExitOne) {
  const ProcessResult r =
      run_threadlab({"train", "--backend", "emulator", "--epochs", "1", "--curves", "/dev/full"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("/dev/full")) << r.describe();
}

// 2^31 - 1 floats were allocated and filled (8 GiB) before the size was checked: an OOM kill.
TEST(CliMemory, AVectorAddTooLargeIsRefusedBeforeAllocating) {
  const ProcessResult r = run_threadlab({"run", "--backend", "emulator", "--n", "2147483647"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("threadlab: ")) << r.describe();
}

// The command docs/demos/lab.toml tells people to run: it replaced vector-add.cu with the demo's
// submission and added the check to progress.json.
TEST(CliLabFiles, AHeadlessLinkLeavesTheLearnersFilesAlone) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_cli_lab_files";
  std::filesystem::remove_all(dir);
  const auto lab = dir / "data" / "threadlab" / "lab";
  std::filesystem::create_directories(lab);
  std::ofstream(lab / "vector-add.cu") << "// MY WORK\n";
  std::ofstream(lab / "progress.json") << "{\"version\": 1, \"exercises\": {}}\n";
  const std::string data = (dir / "data").string();
  ::setenv("XDG_DATA_HOME", data.c_str(), 1);
  const ProcessResult r =
      run_threadlab({"gui", "--headless", "--frames", "3", "--backend", "emulator", "--action",
                     "threadlab:set?exercise=vector-add&submission=missing_guard&check",
                     "--screenshot", (dir / "s.png").string()});
  ::unsetenv("XDG_DATA_HOME");
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(read(lab / "vector-add.cu"), "// MY WORK\n");
  EXPECT_EQ(read(lab / "progress.json"), "{\"version\": 1, \"exercises\": {}}\n");
}

}  // namespace
}  // namespace tl::cli_test
