// `lab grade`'s reports: a run stopped at any moment leaves a valid report on disk that lists every
// file (those not graded yet as pending), --resume grades only those, and the Gradescope and JUnit
// formats carry each check. Everything runs on the CPU emulator.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;
using ::testing::AnyOf;
using ::testing::HasSubstr;

class Folder {
 public:
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "threadlab-report-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~Folder() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string& solution() {
  static const std::string text = run_threadlab({"lab", "solution", "vector-add"}).out;
  return text;
}

const char* const kEndless =
    "__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c, int "
    "n) {\n  for (;;) {}\n}\n";

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The grader killed (SIGKILL, no cleanup) while it grades an endless kernel: the report on disk is
// whole, every file has its row, the rest say pending; --resume keeps what was decided and grades
// the rest.
TEST(LabGradeReport, AStoppedRunLeavesAValidReportAndResumeFinishesIt) {
  Folder folder;
  Folder results;
  write_file(folder.path() / "a.cu", solution());
  write_file(folder.path() / "b-endless.cu", kEndless);
  write_file(folder.path() / "c.cu", solution());
  const fs::path report = results.path() / "grades.json";
  const std::string command =
      "timeout -s KILL 6 " + shell_quote(threadlab_binary()) + " lab grade " +
      shell_quote(folder.path().string()) +
      " --exercise vector-add --backend emulator --format json --timeout-ms 3000 --output " +
      shell_quote(report.string()) + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_NE(status, 0) << "the grader was meant to be killed halfway";

  const nlohmann::json stopped = nlohmann::json::parse(read_file(report), nullptr, false);
  ASSERT_TRUE(stopped.is_array()) << "the report of a stopped run is not valid JSON:\n"
                                  << read_file(report);
  ASSERT_EQ(stopped.size(), 3u);
  std::map<std::string, nlohmann::json> before;
  for (const nlohmann::json& row : stopped) before[row["file"]] = row;
  EXPECT_EQ(before["b-endless.cu"]["outcome"], "pending");
  EXPECT_EQ(before["c.cu"]["outcome"], "pending");
  EXPECT_THAT(before["a.cu"]["outcome"].get<std::string>(), AnyOf("passed", "pending"));

  const ProcessResult resumed = run_threadlab(
      {"lab", "grade", folder.path().string(), "--exercise", "vector-add", "--backend", "emulator",
       "--format", "json", "--timeout-ms", "500", "--output", report.string(), "--resume"});
  ASSERT_TRUE(resumed.exited) << resumed.describe();
  EXPECT_EQ(resumed.exit_code, 0) << resumed.describe();
  const nlohmann::json finished = nlohmann::json::parse(read_file(report), nullptr, false);
  ASSERT_TRUE(finished.is_array());
  ASSERT_EQ(finished.size(), 3u);
  std::map<std::string, nlohmann::json> after;
  for (const nlohmann::json& row : finished) after[row["file"]] = row;
  EXPECT_EQ(after["a.cu"]["outcome"], "passed");
  EXPECT_EQ(after["b-endless.cu"]["outcome"], "timeout");
  EXPECT_EQ(after["c.cu"]["outcome"], "passed");
  if (before["a.cu"]["outcome"] == "passed") {
    // Kept, not graded again: the same row, to the second.
    EXPECT_EQ(after["a.cu"]["seconds"], before["a.cu"]["seconds"]);
    EXPECT_THAT(resumed.err, HasSubstr("1 kept from"));
  }
}

TEST(LabGradeReport, ResumeNeedsTheReportItContinues) {
  Folder folder;
  write_file(folder.path() / "a.cu", solution());
  const ProcessResult r = run_threadlab({"lab", "grade", folder.path().string(), "--exercise",
                                         "vector-add", "--backend", "emulator", "--resume"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("--output"));
  const ProcessResult junit = run_threadlab(
      {"lab", "grade", folder.path().string(), "--exercise", "vector-add", "--backend", "emulator",
       "--format", "junit", "--output", (folder.path() / "r.xml").string(), "--resume"});
  EXPECT_EQ(junit.exit_code, 2) << junit.describe();
}

// Gradescope's results.json: a point per check, each check a test with its visibility; JUnit: a
// suite per file, a case per check, a failure with the check's message, an error for a file that
// does not compile.
TEST(LabGradeReport, GradescopeAndJunitCarryEveryCheck) {
  Folder folder;
  write_file(folder.path() / "good.cu", solution());
  std::string unguarded = solution();
  const std::size_t guard = unguarded.find("if (i < n) ");
  ASSERT_NE(guard, std::string::npos);
  unguarded.erase(guard, std::string("if (i < n) ").size());
  write_file(folder.path() / "unguarded.cu", unguarded);
  write_file(folder.path() / "broken.cu", "this is not CUDA\n");

  const ProcessResult gradescope =
      run_threadlab({"lab", "grade", folder.path().string(), "--exercise", "vector-add",
                     "--backend", "emulator", "--format", "gradescope"});
  ASSERT_EQ(gradescope.exit_code, 0) << gradescope.describe();
  const nlohmann::json results = nlohmann::json::parse(gradescope.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << gradescope.out;
  ASSERT_TRUE(results["tests"].is_array());
  double passed = 0;
  int good_tests = 0;
  for (const nlohmann::json& test : results["tests"]) {
    EXPECT_TRUE(test.contains("visibility"));
    EXPECT_THAT(test["status"].get<std::string>(), AnyOf("passed", "failed"));
    passed += test["score"].get<double>();
    if (test["name"].get<std::string>().starts_with("good.cu: ")) {
      ++good_tests;
      EXPECT_EQ(test["status"], "passed");
    }
  }
  EXPECT_EQ(good_tests, 5);
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), passed);
  EXPECT_GE(passed, 5.0);
  EXPECT_LT(passed, 10.0) << "the unguarded kernel fails the n = 1 check at least";

  const ProcessResult junit =
      run_threadlab({"lab", "grade", folder.path().string(), "--exercise", "vector-add",
                     "--backend", "emulator", "--format", "junit"});
  ASSERT_EQ(junit.exit_code, 0) << junit.describe();
  EXPECT_THAT(junit.out, HasSubstr("<?xml version=\"1.0\""));
  EXPECT_THAT(junit.out, HasSubstr("<testsuite name=\"good.cu\" tests=\"5\" failures=\"0\""));
  EXPECT_THAT(junit.out, HasSubstr("<testsuite name=\"unguarded.cu\""));
  EXPECT_THAT(junit.out, HasSubstr("<failure message="));
  EXPECT_THAT(junit.out, HasSubstr("<error type=\"compile-error\""));
  std::size_t opened = 0;
  std::size_t closed = 0;
  for (std::size_t at = junit.out.find("<testsuite "); at != std::string::npos;
       at = junit.out.find("<testsuite ", at + 1)) {
    ++opened;
  }
  for (std::size_t at = junit.out.find("</testsuite>"); at != std::string::npos;
       at = junit.out.find("</testsuite>", at + 1)) {
    ++closed;
  }
  EXPECT_EQ(opened, 3u);
  EXPECT_EQ(closed, 3u);
}

}  // namespace
}  // namespace tl::cli_test
