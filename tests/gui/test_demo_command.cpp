// `threadlab demo`, as a teacher runs it: headless it renders one distinct PNG per step; a script
// with a mistake is refused before anything opens, with the file and line; in a real window
// (under Xvfb) it plays; and a corrupt settings file only costs a warning.

#include <gtest/gtest.h>

#include <optional>

#include <stb_image.h>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>

#include "../cli/cli_process.hpp"

namespace tl {
namespace {

using cli_test::run_threadlab;

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_demo_test" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write_script(const std::filesystem::path& dir, const std::string& text) {
  const auto path = dir / "demo.toml";
  std::ofstream(path) << text;
  return path.string();
}

// The decoded pixels, so that two files count as the same picture only when they look the same.
std::string pixels_of(const std::filesystem::path& png, int& width, int& height) {
  int channels = 0;
  unsigned char* data = stbi_load(png.c_str(), &width, &height, &channels, 3);
  if (data == nullptr) return {};
  std::string pixels(reinterpret_cast<const char*>(data),
                     static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
  stbi_image_free(data);
  return pixels;
}

constexpr const char* kThreeSteps = R"(title = "Test demo"

[[step]]
caption = "One block"
lesson = "vector-add"
set = { n = 1000, grid = 1, block = 1000 }
color = "thread"
launch = true

[[step]]
caption = "A 3D grid"
lesson = "thread-hierarchy"
set = { n = 3000, grid = [4, 3, 2], block = [8, 4, 4], grid_stride = false }
view = "grid"
launch = true
shot = "grid"

[[step]]
caption = "Tiles"
lesson = "matmul"
set = { m = 40, n = 48, k = 36, kernel = "tiled", tile = 8 }
pick = "17,30"
launch = true
)";

TEST(DemoCommand, HeadlessRendersOneDistinctPngPerStep) {
  const auto dir = fresh_dir("three_steps");
  const std::string script = write_script(dir, kThreeSteps);
  const auto out = dir / "out";
  auto run = run_threadlab({"demo", script, "--headless", "--out", out.string(), "--backend",
                            "emulator", "--width", "960", "--height", "600"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    files.insert(entry.path().filename().string());
  }
  EXPECT_EQ(files, (std::set<std::string>{"step-01.png", "grid.png", "step-03.png"}));
  std::set<std::size_t> distinct;
  for (const std::string& name : files) {
    int width = 0;
    int height = 0;
    const std::string pixels = pixels_of(out / name, width, height);
    ASSERT_FALSE(pixels.empty()) << name << " is not a PNG";
    EXPECT_EQ(width, 960);
    EXPECT_EQ(height, 600);
    distinct.insert(std::hash<std::string>{}(pixels));
  }
  EXPECT_EQ(distinct.size(), 3u) << "every step must look different";
  EXPECT_NE(run.out.find("grid.png"), std::string::npos) << "it lists what it wrote";
}

struct BadDemo {
  const char* name;
  const char* script;
  const char* expected;  // in the one line on stderr
};

class DemoCommandErrors : public ::testing::TestWithParam<BadDemo> {};

TEST_P(DemoCommandErrors, ExitsOneWithTheFileAndLine) {
  const BadDemo& bad = GetParam();
  const auto dir = fresh_dir(std::string("bad_") + bad.name);
  const std::string script = write_script(dir, bad.script);
  auto run = run_threadlab(
      {"demo", script, "--headless", "--out", (dir / "out").string(), "--backend", "emulator"});
  EXPECT_EQ(run.exit_code, 1) << run.describe();
  const auto lines = cli_test::split_lines(run.err);
  ASSERT_EQ(lines.size(), 1u) << run.describe();
  EXPECT_NE(lines[0].find(script + ":"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(bad.expected), std::string::npos) << lines[0];
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "nothing is rendered from a bad script";
}

INSTANTIATE_TEST_SUITE_P(
    Scripts, DemoCommandErrors,
    ::testing::Values(BadDemo{"syntax", "[[step]]\nlaunch = yes\n", ":2:"},
                      BadDemo{"unknown_key", "[[step]]\nlesson = \"vector-add\"\nlaunh = true\n",
                              ":3: step 1: unknown key 'launh'"},
                      BadDemo{"unknown_lesson",
                              "[[step]]\nlaunch = true\n\n[[step]]\nlesson = \"fft\"\n",
                              ":4: step 2:"},
                      BadDemo{"refused_value",
                              "[[step]]\nlesson = \"matmul\"\nset = { tile = 12 }\n",
                              ":1: step 1:"},
                      BadDemo{"bad_colour", "[[step]]\ncolor = \"rainbow\"\n", ":1: step 1:"},
                      BadDemo{"no_steps", "title = \"empty\"\n", "no steps"}),
    [](const ::testing::TestParamInfo<BadDemo>& info) { return std::string(info.param.name); });

TEST(DemoCommand, AMissingScriptOrOutputFolderIsAOneLineError) {
  auto missing = run_threadlab({"demo", "/nonexistent/demo.toml", "--headless", "--out", "/tmp/x"});
  EXPECT_EQ(missing.exit_code, 1) << missing.describe();
  EXPECT_NE(missing.err.find("the demo script: cannot read /nonexistent/demo.toml"),
            std::string::npos)
      << missing.describe();
  auto no_out = run_threadlab({"demo", "/nonexistent/demo.toml", "--headless"});
  EXPECT_EQ(no_out.exit_code, 2) << no_out.describe();
  EXPECT_NE(no_out.err.find("--out"), std::string::npos);
}

TEST(DemoCommand, PlaysInARealWindowInPresenterMode) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
  const auto dir = fresh_dir("window");
  // Presenter mode in a window: full screen on the (virtual) monitor and the font atlas rebuilt.
  const std::string script = write_script(dir, std::string("presenter = true\n") + kThreeSteps);
  const auto shot = dir / "last.png";
  auto run = run_threadlab({"demo", script, "--backend", "emulator", "--frames", "4",
                            "--screenshot", shot.string(), "--width", "1024", "--height", "640"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  int width = 0;
  int height = 0;
  EXPECT_FALSE(pixels_of(shot, width, height).empty());
  // Full screen fills the monitor (xvfb-run's screen), not the 1024 × 640 asked for.
  EXPECT_GT(width, 1024) << "presenter mode did not go full screen";
}

TEST(GuiSettings, ACorruptSettingsFileIsAWarningAndTheAppRuns) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
  const auto config = fresh_dir("corrupt_settings");
  std::filesystem::create_directories(config / "threadlab");
  std::ofstream(config / "threadlab" / "settings.toml")
      << "last_lesson = \"matmul\nwindow_width = [\n";
  // The child inherits it; put it back after, or later tests in this process would read the
  // corrupt file too.
  const char* saved = std::getenv("XDG_CONFIG_HOME");
  const std::optional<std::string> previous =
      saved != nullptr ? std::optional<std::string>(saved) : std::nullopt;
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  auto run = run_threadlab({"gui", "--backend", "emulator", "--frames", "2"});
  if (previous) {
    ::setenv("XDG_CONFIG_HOME", previous->c_str(), 1);
  } else {
    ::unsetenv("XDG_CONFIG_HOME");
  }
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto lines = cli_test::split_lines(run.err);
  ASSERT_EQ(lines.size(), 1u) << run.describe();
  EXPECT_NE(lines[0].find("warning: "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("settings.toml:1"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("default settings"), std::string::npos) << lines[0];
  // The trace path is named on stdout, where a scripted run can read it.
  EXPECT_NE(run.out.find("threadlab: CPU emulator: "), std::string::npos) << run.describe();
}

}  // namespace
}  // namespace tl

namespace tl {
namespace {

// Ctrl+C or a session manager's SIGTERM closes the window as its close button does: exit 0, and
// the settings are written.
TEST(GuiSettings, ATerminatedWindowStillSavesTheSettings) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
  const auto config = fresh_dir("terminated");
  const std::string binary = cli_test::threadlab_binary();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
    execl(binary.c_str(), binary.c_str(), "gui", "--backend", "emulator", "--width", "900",
          "--height", "700", "--action", "threadlab:set?lesson=matmul",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::seconds(4));  // the window is up and running
  ASSERT_EQ(kill(child, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const auto settings = config / "threadlab" / "settings.toml";
  ASSERT_TRUE(std::filesystem::exists(settings));
  std::ifstream in(settings);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("last_lesson = 'matmul'"), std::string::npos) << text;
  EXPECT_NE(text.find("window_width = 900"), std::string::npos) << text;
}

}  // namespace
}  // namespace tl
