#include "core/classroom/settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <toml++/toml.h>

#include "core/classroom/toml_fields.hpp"
#include "core/user_files.hpp"

namespace tl::classroom {

Result<Theme> parse_theme(const std::string& name) {
  if (name == "dark") return Theme::kDark;
  if (name == "high-contrast") return Theme::kHighContrast;
  return invalid_argument("theme '" + name + "': expected dark or high-contrast");
}

std::string theme_name(Theme theme) {
  return theme == Theme::kHighContrast ? "high-contrast" : "dark";
}

namespace {

// Reads what it can into `settings`; returns the problems, one per line-numbered item.
std::vector<std::string> read_fields(const toml::table& table, const std::string& file,
                                     Settings& settings) {
  std::vector<std::string> problems;
  auto note = [&](const toml::node& node, const std::string& what) {
    problems.push_back(located(file, node, what));
  };
  for (const auto& [name, node_pointer] : in_file_order(table)) {
    const toml::node& node = *node_pointer;
    if (name == "last_lesson") {
      if (auto text = node.value<std::string>()) {
        settings.last_lesson = *text;
      } else {
        note(node, "last_lesson must be a string");
      }
    } else if (name == "presenter_scale") {
      const auto scale = node.value<double>();
      if (scale && *scale >= kMinPresenterScale && *scale <= kMaxPresenterScale) {
        settings.presenter_scale = static_cast<float>(*scale);
      } else {
        note(node, "presenter_scale must be a number from 1.5 to 3");
      }
    } else if (name == "theme") {
      const auto text = node.value<std::string>();
      auto theme =
          text ? parse_theme(*text) : Result<Theme>(invalid_argument("theme must be a string"));
      if (theme) {
        settings.theme = *theme;
      } else {
        note(node, theme.message());
      }
    } else if (name == "window_width" || name == "window_height") {
      const auto side = node.is_integer() ? node.value<std::int64_t>() : std::nullopt;
      if (side && *side >= kMinWindowSide && *side <= kMaxWindowSide) {
        (name == "window_width" ? settings.window_width : settings.window_height) =
            static_cast<int>(*side);
      } else {
        note(node, name + " must be a whole number of pixels from 320 to 16384");
      }
    } else {
      note(node, "unknown setting '" + name + "'");
    }
  }
  return problems;
}

}  // namespace

WindowSize fit_window_to_screen(WindowSize remembered, int area_width, int area_height) {
  if (area_width > 0) remembered.width = std::min(remembered.width, area_width);
  if (area_height > 0) remembered.height = std::min(remembered.height, area_height);
  // Never below what the settings accept, even on a tiny or misreported screen.
  remembered.width = std::max(remembered.width, kMinWindowSide);
  remembered.height = std::max(remembered.height, kMinWindowSide);
  return remembered;
}

LoadedSettings load_settings(const std::filesystem::path& path) {
  LoadedSettings loaded;
  std::error_code exists_error;
  if (!std::filesystem::exists(path, exists_error)) {
    // A symlink loop or an unreachable folder is not "no settings yet": say so.
    if (exists_error) {
      loaded.warning = "cannot read " + path.string() + ": " + exists_error.message() +
                       "; using the default settings";
    }
    return loaded;
  }
  // A regular file of bounded size only: a FIFO or a folder there is a warning, never a hang (F10).
  Result<std::string> text = read_input_file(path);
  if (!text) {
    loaded.warning = text.message() + "; using the default settings";
    return loaded;
  }
  auto table = parse_toml(*text, path.string());
  if (!table) {
    loaded.warning = table.message() + "; using the default settings";
    return loaded;
  }
  Settings read;
  const auto problems = read_fields(*table, path.string(), read);
  loaded.settings = read;
  if (!problems.empty()) {
    std::string line = problems.front() + " (left at its default)";
    if (problems.size() > 1) line += " and " + std::to_string(problems.size() - 1) + " more";
    loaded.warning = line;
  }
  return loaded;
}

Status save_settings(const std::filesystem::path& path, const Settings& settings) {
  toml::table table{{"last_lesson", settings.last_lesson},
                    {"presenter_scale", static_cast<double>(settings.presenter_scale)},
                    {"theme", theme_name(settings.theme)},
                    {"window_width", settings.window_width},
                    {"window_height", settings.window_height}};
  std::ostringstream text;
  text << "# ThreadLab's settings, written by the app; edit while it is closed.\n" << table << '\n';
  return write_file_atomically(path, text.str());
}

std::optional<std::filesystem::path> default_settings_path() {
  return user_file("XDG_CONFIG_HOME", ".config", "settings.toml");
}

}  // namespace tl::classroom
