#include "core/classroom/settings.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

namespace tl::classroom {
namespace {

std::filesystem::path fresh_path(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_settings" / name;
  std::filesystem::remove_all(dir);
  return dir / "settings.toml";
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(Settings, RoundTripThroughTheFile) {
  const auto path = fresh_path("round_trip");
  Settings settings;
  settings.last_lesson = "matmul";
  settings.presenter_scale = 2.5f;
  settings.theme = Theme::kHighContrast;
  settings.window_width = 1920;
  settings.window_height = 1080;
  ASSERT_TRUE(save_settings(path, settings).is_ok());
  const LoadedSettings loaded = load_settings(path);
  EXPECT_FALSE(loaded.warning.has_value()) << *loaded.warning;
  EXPECT_EQ(loaded.settings, settings);
}

TEST(Settings, AMissingFileGivesTheDefaultsSilently) {
  const LoadedSettings loaded = load_settings(fresh_path("missing"));
  EXPECT_FALSE(loaded.warning.has_value());
  EXPECT_EQ(loaded.settings, Settings{});
}

TEST(Settings, ACorruptFileGivesTheDefaultsAndOneLineNamingTheLine) {
  const auto path = fresh_path("corrupt");
  write(path, "last_lesson = \"matmul\"\npresenter_scale = [\n");
  const LoadedSettings loaded = load_settings(path);
  EXPECT_EQ(loaded.settings, Settings{});
  ASSERT_TRUE(loaded.warning.has_value());
  EXPECT_NE(loaded.warning->find(path.string() + ":"), std::string::npos) << *loaded.warning;
  EXPECT_NE(loaded.warning->find("default"), std::string::npos) << *loaded.warning;
  EXPECT_EQ(loaded.warning->find('\n'), std::string::npos);
}

TEST(Settings, BadValuesKeepTheirDefaultsAndTheGoodOnesLoad) {
  const auto path = fresh_path("bad_values");
  write(path,
        "last_lesson = \"dense-layer\"\n"
        "presenter_scale = 9.0\n"
        "theme = \"neon\"\n"
        "window_width = 100000\n"
        "window_height = 900\n"
        "colour = 3\n");
  const LoadedSettings loaded = load_settings(path);
  EXPECT_EQ(loaded.settings.last_lesson, "dense-layer");
  EXPECT_EQ(loaded.settings.window_height, 900);
  EXPECT_EQ(loaded.settings.presenter_scale, Settings{}.presenter_scale);
  EXPECT_EQ(loaded.settings.theme, Settings{}.theme);
  EXPECT_EQ(loaded.settings.window_width, Settings{}.window_width);
  ASSERT_TRUE(loaded.warning.has_value());
  EXPECT_NE(loaded.warning->find(":2: presenter_scale"), std::string::npos) << *loaded.warning;
  EXPECT_NE(loaded.warning->find("and 3 more"), std::string::npos) << *loaded.warning;
}

TEST(Settings, BinaryGarbageIsOnlyAWarning) {
  const auto path = fresh_path("garbage");
  write(path, std::string("\x00\xff\xfe[[[\x01", 7));
  const LoadedSettings loaded = load_settings(path);
  EXPECT_EQ(loaded.settings, Settings{});
  EXPECT_TRUE(loaded.warning.has_value());
}

TEST(Settings, TheDefaultPathFollowsXdg) {
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg-config", 1);
  EXPECT_EQ(default_settings_path(),
            std::filesystem::path("/tmp/xdg-config/threadlab/settings.toml"));
  ::unsetenv("XDG_CONFIG_HOME");
  ::setenv("HOME", "/home/teacher", 1);
  EXPECT_EQ(default_settings_path(),
            std::filesystem::path("/home/teacher/.config/threadlab/settings.toml"));
}

TEST(Settings, ThemesHaveNames) {
  EXPECT_EQ(parse_theme("high-contrast").value(), Theme::kHighContrast);
  EXPECT_EQ(theme_name(Theme::kDark), "dark");
  EXPECT_FALSE(parse_theme("neon").is_ok());
}

// A FIFO or a folder where settings.toml should be: a warning and the defaults, never a hang.
TEST(Settings, AFifoOrAFolderIsAWarningNotAHang) {
  const auto fifo = fresh_path("fifo");
  std::filesystem::create_directories(fifo.parent_path());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const LoadedSettings from_fifo = load_settings(fifo);
  ASSERT_TRUE(from_fifo.warning.has_value());
  EXPECT_NE(from_fifo.warning->find("FIFO"), std::string::npos) << *from_fifo.warning;
  EXPECT_EQ(from_fifo.settings, Settings{});

  const auto folder = fresh_path("folder");
  std::filesystem::create_directories(folder);
  const LoadedSettings from_folder = load_settings(folder);
  ASSERT_TRUE(from_folder.warning.has_value()) << "a folder is not 'no settings yet'";
  EXPECT_NE(from_folder.warning->find("folder"), std::string::npos) << *from_folder.warning;
}

TEST(Settings, ASymlinkLoopIsAWarning) {
  const auto path = fresh_path("loop");
  std::filesystem::create_directories(path.parent_path());
  std::filesystem::create_symlink(path, path);
  const LoadedSettings loaded = load_settings(path);
  EXPECT_TRUE(loaded.warning.has_value());
}

// 16384 x 16384 is inside the accepted range, but a window that size froze the app for 86 s.
TEST(Settings, ARememberedWindowFitsTheScreen) {
  EXPECT_EQ(fit_window_to_screen({16384, 16384}, 1920, 1050), (WindowSize{1920, 1050}));
  EXPECT_EQ(fit_window_to_screen({1600, 1000}, 1280, 720), (WindowSize{1280, 720}));
  EXPECT_EQ(fit_window_to_screen({1600, 1000}, 2560, 1440), (WindowSize{1600, 1000}));
  EXPECT_EQ(fit_window_to_screen({1600, 1000}, 0, 0), (WindowSize{1600, 1000})) << "unknown";
  EXPECT_EQ(fit_window_to_screen({1600, 1000}, 100, 100), (WindowSize{320, 320}));
}

}  // namespace
}  // namespace tl::classroom
