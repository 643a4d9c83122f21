// `threadlab run --lesson moving-data`: its own parameters on the command line, the timeline
// exported with --export, the emulator's timeline called a model in the output and the file, and
// bad input refused with a message: a configuration no lesson accepts with the usage status (2),
// memory that is not there with the failure status (1). The library returns errors, never exits.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(CliMovingData, RunExportsTheTimelineAndCallsTheEmulatorsAModel) {
  const auto folder = std::filesystem::temp_directory_path() /
                      ("threadlab-moving-data-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::string prefix = (folder / "md").string();
  const std::vector<std::string> args = {
      "run",  "--lesson",  "moving-data", "--backend", "emulator", "--bytes", "256Ki", "--chunks",
      "8",    "--streams", "4",           "--memory",  "pinned",   "--work",  "2",     "--copy-top",
      "64Ki", "--repeats", "1",           "--check",   "--export", prefix};
  const ProcessResult r = run_threadlab(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("MODEL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("modelled pipeline, 4 stream(s), pinned"), std::string::npos) << r.out;
  const std::string csv = read_file(prefix + ".timeline.csv");
  EXPECT_EQ(csv.rfind("chunk,stream,stage,start_ms,end_ms\n", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 * 8);
  EXPECT_NE(read_file(prefix + ".timeline.json").find("\"source\": \"model\""), std::string::npos);
  EXPECT_NE(read_file(prefix + ".copies.csv").find("to-device,pinned,65536,"), std::string::npos);
  std::filesystem::remove_all(folder);
}

TEST(CliMovingData, ScheduleIsAParameterWithHelpAndTheDefaultStreamKernelIsExported) {
  const auto folder = std::filesystem::temp_directory_path() /
                      ("threadlab-moving-data-schedule-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::string prefix = (folder / "md").string();
  const ProcessResult r = run_threadlab({"run",
                                         "--lesson",
                                         "moving-data",
                                         "--backend",
                                         "emulator",
                                         "--bytes",
                                         "256Ki",
                                         "--chunks",
                                         "8",
                                         "--streams",
                                         "4",
                                         "--work",
                                         "2",
                                         "--copy-top",
                                         "64Ki",
                                         "--repeats",
                                         "1",
                                         "--schedule",
                                         "legacy-default",
                                         "--export",
                                         prefix});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("modelled pipeline, 4 stream(s), pinned, legacy-default"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("legacy default-stream kernel ran from"), std::string::npos) << r.out;
  const std::string csv = read_file(prefix + ".timeline.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 * 8 + 1) << csv;
  EXPECT_NE(csv.find("\n,legacy,kernel,"), std::string::npos) << csv;
  EXPECT_NE(read_file(prefix + ".timeline.json").find("\"schedule\": \"legacy-default\""),
            std::string::npos);
  std::filesystem::remove_all(folder);

  const ProcessResult bad = run_threadlab(
      {"run", "--lesson", "moving-data", "--backend", "emulator", "--schedule", "sideways"});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.err.find("copy-stream"), std::string::npos) << bad.describe();
  const ProcessResult one =
      run_threadlab({"run", "--lesson", "moving-data", "--backend", "emulator", "--chunks", "1",
                     "--streams", "1", "--schedule", "per-thread-default"});
  EXPECT_EQ(one.exit_code, 2) << one.describe();
  EXPECT_NE(one.err.find("2 chunks at least"), std::string::npos) << one.describe();
  const ProcessResult help = run_threadlab({"run", "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.describe();
  EXPECT_NE(help.out.find("--schedule"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("moving-data: How the operations are issued"), std::string::npos)
      << help.out;
}

TEST(CliMovingData, BadInputIsRefusedWithAMessage) {
  const ProcessResult zero =
      run_threadlab({"run", "--lesson", "moving-data", "--backend", "emulator", "--chunks", "0"});
  EXPECT_EQ(zero.exit_code, 2) << zero.describe();
  EXPECT_NE(zero.err.find("chunks must be at least 1"), std::string::npos) << zero.describe();
  const ProcessResult streams = run_threadlab({"run", "--lesson", "moving-data", "--backend",
                                               "emulator", "--chunks", "2", "--streams", "4"});
  EXPECT_EQ(streams.exit_code, 2) << streams.describe();
  EXPECT_NE(streams.err.find("must not exceed chunks"), std::string::npos) << streams.describe();
  const ProcessResult huge =
      run_threadlab({"run", "--lesson", "moving-data", "--backend", "emulator", "--bytes", "2^42",
                     "--chunks", "4096", "--repeats", "1"});
  EXPECT_EQ(huge.exit_code, 1) << huge.describe();
  EXPECT_NE(huge.err.find("ask for fewer bytes"), std::string::npos) << huge.describe();
}

}  // namespace
}  // namespace tl::cli_test
