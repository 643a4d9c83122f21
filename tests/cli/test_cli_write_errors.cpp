// Faults a person meets on their own machine: a full disk under an output file is an exit 1 with
// the reason (F9 of the reliability review), a size too big for memory is refused before anything
// is allocated (F6), and a headless link never replaces the learner's Lab files (F1).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

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

// The window's screenshot once went through stb's unchecked fwrite: a full disk was an exit 0, and
// a FIFO nothing reads blocked the app forever at its open.
TEST(CliWriteErrors, AScreenshotToAFullDiskIsExitOneWithTheReason) {
  const ProcessResult r = run_threadlab(
      {"gui", "--headless", "--frames", "1", "--backend", "emulator", "--screenshot", "/dev/full"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("No space left on device")) << r.describe();
}

TEST(CliWriteErrors, AScreenshotToAFifoNothingReadsIsExitOneNotAHang) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_cli_screenshot_fifo";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto fifo = dir / "shot.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const ProcessResult r = run_threadlab({"gui", "--headless", "--frames", "1", "--backend",
                                         "emulator", "--screenshot", fifo.string()});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("a FIFO that nothing reads")) << r.describe();
}

// A table printed to a full disk was lost while the command said it had worked (exit 0): standard
// output is flushed and checked at exit, as coreutils do.
TEST(CliWriteErrors, StandardOutputToAFullDiskIsExitOne) {
  const auto err = std::filesystem::path(::testing::TempDir()) / "threadlab_cli_stdout_full.txt";
  for (const std::string command : {"lab list", "lab list --format json", "lessons"}) {
    const std::string line =
        "'" + threadlab_binary() + "' " + command + " >/dev/full 2>'" + err.string() + "'";
    const int status = std::system(line.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << command;
    EXPECT_EQ(WEXITSTATUS(status), 1) << command;
    EXPECT_THAT(read(err), HasSubstr("write error on standard output: No space left on device"))
        << command;
  }
  std::filesystem::remove(err);
}

// 2^31 - 1 floats were allocated and filled (8 GiB) before the size was checked: an OOM kill.
TEST(CliMemory, AVectorAddTooLargeIsRefusedBeforeAllocating) {
  const ProcessResult r = run_threadlab({"run", "--backend", "emulator", "--n", "2147483647"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("threadlab: ")) << r.describe();
}

// The same size as a sweep point was OOM-killed after 52 s, its inputs filled before the check.
TEST(CliMemory, ABenchSizeTooLargeIsRefusedBeforeAllocating) {
  const ProcessResult r = run_threadlab(
      {"bench", "--backend", "emulator", "--sizes", "2147483647", "--repeats", "1", "--no-cpu"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("stops at 268,435,456")) << r.describe();
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
