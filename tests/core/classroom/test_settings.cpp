#include "core/classroom/settings.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tl::classroom
