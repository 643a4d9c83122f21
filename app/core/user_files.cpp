#include "core/user_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <system_error>

namespace tl {
namespace {

std::string reason(int error) {
  return std::strerror(error);
}

Error write_error(const std::filesystem::path& path, int error) {
  return Error{ErrorKind::kIoError, "cannot save " + path.string() + ": " + reason(error)};
}

// Writes all of `contents`, retrying short writes and EINTR; false with errno set on failure.
bool write_all(FileWriteCalls& calls, int fd, std::string_view contents) {
  std::size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = calls.write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Unique per process and per call: two instances, or two threads, never share a temporary file.
std::filesystem::path temporary_beside(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  return path.string() + ".tmp." + unique_process_tag() + "." +
         std::to_string(counter.fetch_add(1));
}

// Makes the rename itself durable: without it a power loss can bring back the old name.
void sync_folder(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // some file systems do not open folders; the data itself is synced
  ::fsync(fd);
  ::close(fd);
}

// The last steps of every atomic write, once the temporary file is on the disk: renamed over
// `path`, the folder flushed; on failure the temporary file is removed and `path` keeps its
// contents.
Status install(FileWriteCalls& calls, const std::filesystem::path& temporary,
               const std::filesystem::path& path) {
  if (calls.rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return write_error(path, error);
  }
  sync_folder(path);
  return Status::ok();
}

}  // namespace

int FileWriteCalls::open(const char* path, int flags, mode_t mode) {
  return ::open(path, flags, mode);
}
ssize_t FileWriteCalls::write(int fd, const void* data, std::size_t size) {
  return ::write(fd, data, size);
}
int FileWriteCalls::fsync(int fd) {
  return ::fsync(fd);
}
int FileWriteCalls::close(int fd) {
  return ::close(fd);
}
int FileWriteCalls::rename(const char* from, const char* to) {
  return ::rename(from, to);
}

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

const std::string& unique_process_tag() {
  static const std::string tag = [] {
    std::random_device random;
    const std::uint64_t drawn = (static_cast<std::uint64_t>(random()) << 32) ^ random();
    char text[48];
    std::snprintf(text, sizeof text, "%ld-%016llx", static_cast<long>(::getpid()),
                  static_cast<unsigned long long>(drawn));
    return std::string(text);
  }();
  return tag;
}

Status write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  FileWriteCalls calls;
  return write_file_atomically(path, contents, calls);
}

Status write_file_atomically(const std::filesystem::path& path, std::string_view contents,
                             FileWriteCalls& calls) {
  if (path.has_parent_path()) {
    std::error_code created;
    std::filesystem::create_directories(path.parent_path(), created);
    if (created) {
      return Error{ErrorKind::kIoError, "cannot save " + path.string() + ": cannot create " +
                                            path.parent_path().string() + ": " + created.message()};
    }
  }
  const std::filesystem::path temporary = temporary_beside(path);
  const int fd = calls.open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return write_error(path, errno);
  // Every step is checked: a full disk may show only at fsync or close (F2 of the reliability
  // review), and renaming an unchecked file would replace good contents with an empty file.
  bool ok = write_all(calls, fd, contents);
  int error = ok ? 0 : errno;
  if (ok && calls.fsync(fd) != 0) {
    ok = false;
    error = errno;
  }
  if (calls.close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    ::unlink(temporary.c_str());
    return write_error(path, error);
  }
  return install(calls, temporary, path);
}

Status commit_file(const std::filesystem::path& temporary, const std::filesystem::path& path) {
  FileWriteCalls calls;
  const int fd = calls.open(temporary.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return write_error(path, error);
  }
  // The other program closed the file; only its flush to the disk is left to make sure of.
  bool ok = calls.fsync(fd) == 0;
  const int error = ok ? 0 : errno;
  calls.close(fd);
  if (!ok) {
    ::unlink(temporary.c_str());
    return write_error(path, error);
  }
  return install(calls, temporary, path);
}

Status write_output_file(const std::filesystem::path& path, std::string_view contents) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode)) {
    // A path a person typed names a folder that exists: a typo in it must not make new folders
    // (only the app's own files, under the XDG folders, create theirs).
    std::error_code error;
    const std::filesystem::path folder = path.parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder, error)) {
      return Error{ErrorKind::kIoError, "cannot write " + path.string() + ": the folder " +
                                            folder.string() + " does not exist"};
    }
    return write_file_atomically(path, contents);
  }
  if (S_ISDIR(info.st_mode)) {
    return Error{ErrorKind::kIoError, "cannot write " + path.string() + ": it is a folder"};
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    const std::string why = error == ENXIO ? "a FIFO that nothing reads" : reason(error);
    return Error{ErrorKind::kIoError, "cannot write " + path.string() + ": " + why};
  }
  // A FIFO opened without blocking: go back to blocking writes now that a reader exists.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  FileWriteCalls calls;
  bool ok = write_all(calls, fd, contents);
  int error = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (!ok)
    return Error{ErrorKind::kIoError, "cannot write " + path.string() + ": " + reason(error)};
  return Status::ok();
}

Result<std::filesystem::path> move_aside(const std::filesystem::path& path,
                                         std::string_view suffix) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::filesystem::path aside = path;
    aside += std::string(suffix);
    if (attempt > 0) aside += "." + std::to_string(attempt);
    // link() refuses an existing name, so an earlier copy is never replaced, even by a race.
    if (::link(path.c_str(), aside.c_str()) == 0) {
      ::unlink(path.c_str());
      return aside;
    }
    if (errno == EEXIST) continue;
    // Folders and file systems without hard links: rename when the name is free.
    std::error_code exists;
    if (std::filesystem::exists(aside, exists)) continue;
    std::error_code moved;
    std::filesystem::rename(path, aside, moved);
    if (moved) {
      return Error{ErrorKind::kIoError,
                   "cannot move " + path.string() + " aside: " + moved.message()};
    }
    return aside;
  }
  return Error{ErrorKind::kIoError, "cannot move " + path.string() + " aside: too many copies"};
}

Result<std::string> read_input_file(const std::filesystem::path& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not a file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return Error{ErrorKind::kIoError, "cannot read " + path.string() + ": " + reason(errno)};
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    const char* what = S_ISDIR(info.st_mode)    ? "a folder"
                       : S_ISFIFO(info.st_mode) ? "a FIFO"
                                                : "a device or other special file";
    return Error{ErrorKind::kIoError,
                 "cannot read " + path.string() + ": it is " + what + ", not a regular file"};
  }
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    ::close(fd);
    return Error{ErrorKind::kIoError, "cannot read " + path.string() + ": it has " +
                                          std::to_string(info.st_size) + " bytes, more than the " +
                                          std::to_string(max_bytes) + " allowed"};
  }
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return Error{ErrorKind::kIoError, "cannot read " + path.string() + ": " + reason(error)};
    }
    if (n == 0) break;
    // A file that grows while it is read is still held to the limit.
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      return Error{ErrorKind::kIoError, "cannot read " + path.string() + ": more than " +
                                            std::to_string(max_bytes) + " bytes"};
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace tl
