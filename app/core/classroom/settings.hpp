#pragma once
// What ThreadLab remembers between runs: the last lesson, the presenter scale, the theme and the
// window size, in $XDG_CONFIG_HOME/threadlab/settings.toml. A missing file gives the defaults; a
// corrupt one gives the defaults for what cannot be read and a one-line warning, never a failure
// to start.

#include <filesystem>
#include <optional>
#include <string>

#include "core/result.hpp"

namespace tl::classroom {

enum class Theme { kDark, kHighContrast };
// "dark", "high-contrast"
Result<Theme> parse_theme(const std::string& name);
std::string theme_name(Theme theme);

inline constexpr float kMinPresenterScale = 1.5f;
inline constexpr float kMaxPresenterScale = 3.0f;
inline constexpr int kMinWindowSide = 320;
inline constexpr int kMaxWindowSide = 16384;

struct Settings {
  std::string last_lesson;       // empty: the first lesson
  float presenter_scale = 1.5f;  // how much larger presenter mode draws everything
  Theme theme = Theme::kDark;    // the theme outside presenter mode (which is always high contrast)
  int window_width = 1600;
  int window_height = 1000;
  friend bool operator==(const Settings&, const Settings&) = default;
};

// A remembered window size that fits the screen's work area (`area_*`, 0: unknown, left alone): a
// size saved on a large monitor, or a hand-edited 16384 x 16384, must not open a window larger than
// this screen (it took 86 s and 2.7 GB to open, F10 of the reliability review).
struct WindowSize {
  int width = 0;
  int height = 0;
  friend bool operator==(const WindowSize&, const WindowSize&) = default;
};
WindowSize fit_window_to_screen(WindowSize remembered, int area_width, int area_height);

struct LoadedSettings {
  Settings settings;
  std::optional<std::string> warning;  // one line, "settings.toml:3: ...", when something was wrong
};

// Never fails: what cannot be read is left at its default and named in the warning.
LoadedSettings load_settings(const std::filesystem::path& path);
// Written beside and renamed into place, so a crash never leaves half a file.
Status save_settings(const std::filesystem::path& path, const Settings& settings);

// $XDG_CONFIG_HOME/threadlab/settings.toml, else ~/.config/threadlab/settings.toml; none when
// neither variable is set.
std::optional<std::filesystem::path> default_settings_path();

}  // namespace tl::classroom
