#pragma once
// The files ThreadLab keeps for a user (settings, progress, Lab sources, the device-ceilings cache)
// and the files it writes when asked (screenshots, exports): where they live by the XDG
// base-directory rules, writing them so that neither a crash nor a full disk ever leaves half a
// file or an empty one in place of a good one, and reading inputs without blocking on a FIFO or
// reading /dev/zero forever.

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tl {

// $<variable>/threadlab/<name> (e.g. XDG_CONFIG_HOME), else ~/<home_folder>/threadlab/<name>
// (e.g. .config); none when neither variable is set.
std::optional<std::filesystem::path> user_file(const char* variable, const char* home_folder,
                                               std::string_view name);

// The system calls an atomic write makes, so that a test can make any one of them fail (a full
// disk shows at write, fsync or close depending on the file system). Each returns what POSIX
// returns and sets errno.
class FileWriteCalls {
 public:
  virtual ~FileWriteCalls() = default;
  virtual int open(const char* path, int flags, mode_t mode);
  virtual ssize_t write(int fd, const void* data, std::size_t size);
  virtual int fsync(int fd);
  virtual int close(int fd);
  virtual int rename(const char* from, const char* to);
};

// Creates the folder, writes `contents` to a temporary file of a unique name beside `path`,
// flushes it to the disk, renames it over `path` and flushes the folder. On any failure the
// temporary file is removed, `path` keeps its old contents, and the error names `path` and the
// reason (e.g. "No space left on device", "Read-only file system").
// A name part no other process shares, for temporary files beside shared ones: the pid and a
// random number drawn once per process. The pid alone is not enough: every sandboxed Lab worker
// is PID 1 of its own namespace, and two of them may write into one cache at once.
[[nodiscard]] const std::string& unique_process_tag();

Status write_file_atomically(const std::filesystem::path& path, std::string_view contents);
Status write_file_atomically(const std::filesystem::path& path, std::string_view contents,
                             FileWriteCalls& calls);

// The same for a file another program wrote under a temporary name beside `path` (a compiler's
// output): flushed to the disk, renamed over `path`, the folder flushed; on failure `temporary` is
// removed and `path` keeps what it held.
Status commit_file(const std::filesystem::path& temporary, const std::filesystem::path& path);

// For a file a person named on the command line: atomically as above when `path` is absent or a
// regular file in a folder that exists (a missing folder is an error, never created); in place when
// it is something else that exists (/dev/stdout, a FIFO, /dev/full), since renaming over a device
// would replace it. Every write and the close are checked.
Status write_output_file(const std::filesystem::path& path, std::string_view contents);

// Moves `path` aside to `path` + suffix, or to suffix.1, .2 ... when that name is taken, so that an
// earlier copy kept for a person to look at is never overwritten. Returns the name it now has.
Result<std::filesystem::path> move_aside(const std::filesystem::path& path,
                                         std::string_view suffix);

// Reads an input file (settings, progress, a demo script): a regular file of at most `max_bytes`.
// A FIFO, a device (/dev/zero) or a folder is refused with a message instead of blocking or
// reading forever.
constexpr std::size_t kMaxInputFileBytes = std::size_t{1} << 20;  // the Lab's limit too
Result<std::string> read_input_file(const std::filesystem::path& path,
                                    std::size_t max_bytes = kMaxInputFileBytes);

}  // namespace tl
