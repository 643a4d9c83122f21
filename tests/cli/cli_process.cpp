#include "cli_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

extern char** environ;

namespace tl::cli_test {
namespace {

// Owns one file descriptor, so every early return closes what was opened.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  [[nodiscard]] int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// Reads stdout and stderr together until both reach end of file. Draining them one after the
// other could deadlock: a child blocked on a full stderr pipe never closes stdout.
void drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  std::array<pollfd, 2> fds{{{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}}};
  std::array<std::string*, 2> sinks{&out, &err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // end of file (or a read error): poll ignores negative descriptors
        --open_count;
      }
    }
  }
}

}  // namespace

std::string ProcessResult::status_text() const {
  if (!spawned) return "not started: " + spawn_error;
  if (exited) return "exit " + std::to_string(exit_code);
  return "killed by signal " + std::to_string(term_signal) + " (" + strsignal(term_signal) + ")";
}

std::string ProcessResult::describe() const {
  std::ostringstream s;
  s << status_text() << "\n--- stdout ---\n" << out << "--- stderr ---\n" << err << "--- end ---";
  return s.str();
}

std::string threadlab_binary() {
  if (const char* env = std::getenv("THREADLAB_BINARY"); env != nullptr && *env != '\0') return env;
  return THREADLAB_BINARY;
}

ProcessResult run_threadlab(const std::vector<std::string>& args) {
  ProcessResult result;
  const std::string program = threadlab_binary();

  int out_pipe[2];
  int err_pipe[2];
  // O_CLOEXEC: the child keeps only the ends dup2'ed onto 1 and 2, so end of file arrives when it
  // exits (dup2 clears the flag on the copy).
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Fd out_read(out_pipe[0]);
  Fd out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Fd err_read(err_pipe[0]);
  Fd err_write(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), STDERR_FILENO);

  std::vector<std::string> argv_storage;
  argv_storage.reserve(args.size() + 1);
  argv_storage.push_back(program);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int spawn_status =
      ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_status != 0) {
    result.spawn_error = program + ": " + std::strerror(spawn_status);
    return result;
  }
  result.spawned = true;
  // Close the parent's copies of the write ends, or the reads below never see end of file.
  out_write.reset();
  err_write.reset();
  drain(out_read.get(), err_read.get(), result.out, result.err);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.spawn_error = std::string("waitpid: ") + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
  return result;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

PngHeader read_png_header(const std::filesystem::path& path) {
  PngHeader png;
  std::ifstream file(path, std::ios::binary);
  if (!file) return png;
  unsigned char head[24] = {};
  file.read(reinterpret_cast<char*>(head), sizeof head);
  if (file.gcount() != sizeof head) return png;
  static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (!std::equal(std::begin(kSignature), std::end(kSignature), head)) return png;
  // The first chunk is IHDR: 4 bytes of length, the type, then width and height, big-endian.
  if (std::string(reinterpret_cast<const char*>(head + 12), 4) != "IHDR") return png;
  const auto be32 = [&](int at) {
    return (std::uint32_t{head[at]} << 24) | (std::uint32_t{head[at + 1]} << 16) |
           (std::uint32_t{head[at + 2]} << 8) | std::uint32_t{head[at + 3]};
  };
  png.width = be32(16);
  png.height = be32(20);
  png.bytes = std::filesystem::file_size(path);
  png.ok = true;
  return png;
}

}  // namespace tl::cli_test
