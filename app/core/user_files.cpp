#include "core/user_files.hpp"

#include <cstdlib>
#include <fstream>
#include <system_error>

namespace tl {

std::optional<std::filesystem::path> user_file(const char* variable, const char* home_folder,
                                               std::string_view name) {
  const char* base = std::getenv(variable);
  if (base != nullptr && *base != '\0') return std::filesystem::path(base) / "threadlab" / name;
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / home_folder / "threadlab" / name;
  }
  return std::nullopt;
}

Status write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  std::error_code created;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), created);
  const std::filesystem::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return Error{ErrorKind::kIoError, "cannot write " + temporary.string()};
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) return Error{ErrorKind::kIoError, "cannot write " + temporary.string()};
  }
  std::error_code renamed;
  std::filesystem::rename(temporary, path, renamed);
  if (renamed) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return Error{ErrorKind::kIoError, "cannot write " + path.string() + ": " + renamed.message()};
  }
  return Status::ok();
}

}  // namespace tl
