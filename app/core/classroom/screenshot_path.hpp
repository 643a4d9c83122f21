#pragma once
// Where the screenshot button saves: the user's pictures folder, a name with the date and time, and
// never over an existing file (two shots in one second get -2, -3, ...).

#include <chrono>
#include <filesystem>

namespace tl::classroom {

// $XDG_PICTURES_DIR, else ~/Pictures when it exists, else the home folder, else the current one.
std::filesystem::path default_screenshot_dir();

// dir/threadlab-YYYYMMDD-HHMMSS.png (local time), or with -2, -3 ... where that file exists.
std::filesystem::path next_screenshot_path(const std::filesystem::path& dir,
                                           std::chrono::system_clock::time_point now);

}  // namespace tl::classroom
