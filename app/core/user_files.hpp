#pragma once
// The files ThreadLab keeps for a user (settings, the device-ceilings cache): where they live by
// the XDG base-directory rules, and writing them so that a crash never leaves half a file.

#include <filesystem>
#include <optional>
#include <string_view>

#include "core/result.hpp"

namespace tl {

// $<variable>/threadlab/<name> (e.g. XDG_CONFIG_HOME), else ~/<home_folder>/threadlab/<name>
// (e.g. .config); none when neither variable is set.
std::optional<std::filesystem::path> user_file(const char* variable, const char* home_folder,
                                               std::string_view name);

// Creates the folder, writes `contents` beside the file and renames it into place.
Status write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace tl
