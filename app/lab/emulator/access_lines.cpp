#include "lab/emulator/access_lines.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

extern char** environ;

namespace tl::lab {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

std::string_view basename_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<int> parse_addr2line(std::string_view output, std::size_t addresses,
                                 std::string_view source_file) {
  std::vector<int> lines;
  lines.reserve(addresses);
  bool found = true;  // whether the current address has its line yet
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string_view::npos) end = output.size();
    std::string_view line = output.substr(at, end - at);
    at = end + 1;
    if (line.starts_with("0x")) {
      lines.push_back(0);  // a new address: its frames follow, innermost first
      found = false;
      continue;
    }
    if (found || lines.empty()) continue;
    if (const std::size_t note = line.find(" ("); note != std::string_view::npos) {
      line = line.substr(0, note);  // " (discriminator 2)"
    }
    const std::size_t colon = line.rfind(':');
    if (colon == std::string_view::npos || basename_of(line.substr(0, colon)) != source_file) {
      continue;
    }
    const int number = std::atoi(std::string(line.substr(colon + 1)).c_str());
    if (number > 0) {
      lines.back() = number;
      found = true;
    }
  }
  lines.resize(addresses, 0);
  return lines;
}

Result<std::vector<int>> kernel_lines_of_sites(const fs::path& object,
                                               std::span<const std::uint64_t> return_offsets,
                                               std::string_view source_file) {
  if (return_offsets.empty()) return std::vector<int>{};
  const std::optional<fs::path> tool = find_on_path("addr2line");
  if (!tool) {
    return Error{ErrorKind::kIoError,
                 "addr2line (binutils) is not on PATH: the figures are shown without their lines"};
  }
  std::vector<std::string> argv = {tool->string(), "-a", "-i", "-e", object.string()};
  for (const std::uint64_t offset : return_offsets) {
    // The return address is the instruction after the callback's call; the one before it belongs
    // to the access's own line.
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx",
                  static_cast<unsigned long long>(offset == 0 ? 0 : offset - 1));
    argv.emplace_back(text);
  }
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return Error{ErrorKind::kIoError, "cannot create a pipe"};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  std::string output;
  if (spawned == 0) {
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0) {
      if (n < 0) {
        if (errno == EINTR) continue;
        break;
      }
      output.append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(pipe_fds[0]);
  if (spawned != 0) return Error{ErrorKind::kIoError, "cannot start " + tool->string()};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Error{ErrorKind::kIoError, tool->string() + " could not read " + object.string()};
  }
  return parse_addr2line(output, return_offsets.size(), source_file);
}

}  // namespace tl::lab
