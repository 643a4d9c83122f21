#include "core/classroom/screenshot_path.hpp"

#include <cstdlib>
#include <ctime>
#include <string>
#include <system_error>

namespace tl::classroom {

std::filesystem::path default_screenshot_dir() {
  std::error_code error;
  if (const char* pictures = std::getenv("XDG_PICTURES_DIR"); pictures && *pictures) {
    return pictures;
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    const std::filesystem::path candidate = std::filesystem::path(home) / "Pictures";
    if (std::filesystem::is_directory(candidate, error)) return candidate;
    return home;
  }
  return std::filesystem::current_path(error);
}

std::filesystem::path next_screenshot_path(const std::filesystem::path& dir,
                                           std::chrono::system_clock::time_point now) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm local{};
  localtime_r(&seconds, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = std::string("threadlab-") + stamp;
  std::error_code error;
  std::filesystem::path path = dir / (base + ".png");
  for (int copy = 2; std::filesystem::exists(path, error); ++copy) {
    path = dir / (base + "-" + std::to_string(copy) + ".png");
  }
  return path;
}

}  // namespace tl::classroom
