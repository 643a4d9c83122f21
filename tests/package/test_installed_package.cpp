// ThreadLab installed from its Debian package works as from the build tree: the package is
// unpacked into a temporary root (dpkg -x), and the installed executable, with nothing of the
// source or build tree on its path, prints its version, lists the devices, runs and checks a
// lesson, checks a Lab solution in its sandboxed worker (itself, installed), renders the window
// headless through the desktop entry's command, and finds its demo scripts; the menu entry, icon,
// AppStream metadata, man page and bash completion are where the desktop looks for them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The newest package: $THREADLAB_DEB, else the one scripts/package.sh left in the build tree.
fs::path find_package() {
  if (const char* env = std::getenv("THREADLAB_DEB"); env != nullptr && *env != '\0') return env;
  fs::path newest;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(THREADLAB_PACKAGE_DIR, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("threadlab_") && name.ends_with("_amd64.deb") &&
        (newest.empty() || fs::last_write_time(entry.path()) > fs::last_write_time(newest))) {
      newest = entry.path();
    }
  }
  return newest;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs a shell command, returning its exit status and output (stdout and stderr together).
int shell(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class InstalledPackage : public ::testing::Test {
 protected:
  void SetUp() override {
    deb_ = find_package();
    if (deb_.empty()) {
      GTEST_SKIP() << "no package: run scripts/package.sh first (it leaves one in "
                   << THREADLAB_PACKAGE_DIR << ")";
    }
    char pattern[] = "/tmp/threadlab-package-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
    std::string output;
    ASSERT_EQ(shell("dpkg-deb -x '" + deb_.string() + "' '" + root_.string() + "'", output), 0)
        << output;
    // Nothing of the build tree: the installed executable, its own worker, a fresh home.
    ::setenv("THREADLAB_BINARY", (root_ / "usr/bin/threadlab").c_str(), 1);
    ::setenv("XDG_DATA_HOME", (root_ / "home/data").c_str(), 1);
    ::setenv("XDG_CONFIG_HOME", (root_ / "home/config").c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (root_ / "home/cache").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("THREADLAB_BINARY");
    if (!root_.empty()) {
      std::error_code ec;
      fs::remove_all(root_, ec);  // "removes it"
    }
  }
  fs::path deb_;
  fs::path root_;
};

TEST_F(InstalledPackage, TheExecutableNamesItsVersionAndRunsALessonWithItsCheck) {
  const ProcessResult version = run_threadlab({"--version"});
  ASSERT_TRUE(version.exited && version.exit_code == 0) << version.describe();
  EXPECT_THAT(version.out, HasSubstr(std::string("threadlab ") + THREADLAB_VERSION + " (commit "))
      << version.describe();
  EXPECT_THAT(deb_.filename().string(),
              HasSubstr(std::string("threadlab_") + THREADLAB_VERSION + "_amd64.deb"));

  const ProcessResult info = run_threadlab({"info"});
  EXPECT_TRUE(info.exited && info.exit_code == 0) << info.describe();
  EXPECT_THAT(info.out, HasSubstr("emulator")) << info.describe();

  const ProcessResult run = run_threadlab(
      {"run", "--lesson", "vector-add", "--n", "100000", "--backend", "emulator", "--check"});
  EXPECT_TRUE(run.exited && run.exit_code == 0) << run.describe();
}

TEST_F(InstalledPackage, TheLabChecksASolutionInItsSandboxedWorker) {
  const ProcessResult solution = run_threadlab({"lab", "solution", "vector-add"});
  ASSERT_TRUE(solution.exited && solution.exit_code == 0) << solution.describe();
  const fs::path file = root_ / "mine.cu";
  std::ofstream(file) << solution.out;
  const ProcessResult check = run_threadlab(
      {"lab", "check", file.string(), "--exercise", "vector-add", "--backend", "emulator"});
  EXPECT_TRUE(check.exited && check.exit_code == 0) << check.describe();
  EXPECT_THAT(check.out, HasSubstr("pass")) << check.describe();
}

TEST_F(InstalledPackage, TheMenuEntrysCommandDrawsTheWindowHeadless) {
  const std::string desktop = read_file(root_ / "usr/share/applications/threadlab.desktop");
  ASSERT_THAT(desktop, HasSubstr("Exec=threadlab gui")) << "the menu entry";
  EXPECT_THAT(desktop, HasSubstr("Icon=threadlab"));
  EXPECT_TRUE(fs::exists(root_ / "usr/share/icons/hicolor/scalable/apps/threadlab.svg"));
  const fs::path png = root_ / "window.png";
  const ProcessResult gui = run_threadlab({"gui", "--headless", "--frames", "3", "--width", "800",
                                           "--height", "500", "--screenshot", png.string()});
  ASSERT_TRUE(gui.exited && gui.exit_code == 0) << gui.describe();
  const PngHeader header = read_png_header(png);
  EXPECT_TRUE(header.ok) << png;
  EXPECT_EQ(header.width, 800u);
  EXPECT_EQ(header.height, 500u);
}

TEST_F(InstalledPackage, ManPageCompletionMetadataAndDemosAreWhereTheSystemLooks) {
  std::string output;
  ASSERT_EQ(
      shell("gzip -dc '" + (root_ / "usr/share/man/man1/threadlab.1.gz").string() + "'", output), 0)
      << output;
  EXPECT_THAT(output, HasSubstr(".TH THREADLAB 1"));
  EXPECT_THAT(output, HasSubstr(".SS threadlab lab check")) << "every command, two levels deep";
  const fs::path completion = root_ / "usr/share/bash-completion/completions/threadlab";
  ASSERT_TRUE(fs::exists(completion));
  EXPECT_EQ(shell("bash -n '" + completion.string() + "'", output), 0) << output;
  // The completion offers a command's own flags: `threadlab lab check --exer<TAB>`.
  const fs::path script = root_ / "complete.sh";
  std::ofstream(script) << "source '" << completion.string() << "'\n"
                        << "COMP_WORDS=(threadlab lab check --exer); COMP_CWORD=3; _threadlab\n"
                        << "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
  EXPECT_EQ(shell("bash '" + script.string() + "'", output), 0) << output;
  EXPECT_THAT(output, HasSubstr("--exercise")) << output;

  const fs::path metainfo = root_ / "usr/share/metainfo/io.github.threadlab.ThreadLab.metainfo.xml";
  ASSERT_TRUE(fs::exists(metainfo));
  // Its releases are copied by hand (packaging/), unlike every other place the version shows: a
  // software centre shows the newest, so the one project() names must be among them.
  std::stringstream releases;
  releases << std::ifstream(metainfo).rdbuf();
  EXPECT_THAT(releases.str(),
              HasSubstr(std::string("<release version=\"") + THREADLAB_VERSION + "\""))
      << "packaging/io.github.threadlab.ThreadLab.metainfo.xml has no <release> for "
      << THREADLAB_VERSION;
  if (shell("command -v appstreamcli", output) == 0) {
    EXPECT_EQ(
        shell("appstreamcli validate --no-net --pedantic '" + metainfo.string() + "'", output), 0)
        << output;
  }
  EXPECT_TRUE(fs::exists(root_ / "usr/share/threadlab/demos/readme.toml"));
  EXPECT_TRUE(fs::exists(root_ / "usr/share/doc/threadlab/copyright"));
}

// docs/autograder/run_autograder, with the installed executable first on PATH, grades a folder
// into Gradescope's results.json: the solution scores every check, the starter does not.
TEST_F(InstalledPackage, TheAutograderRecipeGradesASubmissionFolder) {
  const fs::path submission = root_ / "submission";
  const fs::path results = root_ / "results";
  fs::create_directories(submission);
  const ProcessResult solution = run_threadlab({"lab", "solution", "vector-add"});
  ASSERT_TRUE(solution.exited && solution.exit_code == 0) << solution.describe();
  std::ofstream(submission / "mine.cu") << solution.out;
  std::string output;
  const std::string command = "PATH='" + (root_ / "usr/bin").string() + "':$PATH SUBMISSION_DIR='" +
                              submission.string() + "' RESULTS_DIR='" + results.string() +
                              "' bash '" THREADLAB_SOURCE_DIR "/docs/autograder/run_autograder'";
  ASSERT_EQ(shell(command, output), 0) << output;
  const std::string json = read_file(results / "results.json");
  EXPECT_THAT(json, HasSubstr("\"status\": \"passed\"")) << json;
  EXPECT_EQ(json.find("\"status\": \"failed\""), std::string::npos) << json;

  const ProcessResult starter = run_threadlab({"lab", "starter", "vector-add"});
  ASSERT_TRUE(starter.exited && starter.exit_code == 0) << starter.describe();
  fs::remove(submission / "mine.cu");
  std::ofstream(submission / "starter.cu") << starter.out;
  ASSERT_EQ(shell(command, output), 0) << "a failed check is a grade, not an error: " << output;
  EXPECT_THAT(read_file(results / "results.json"), HasSubstr("\"status\": \"failed\""));
}

}  // namespace
}  // namespace tl::cli_test
