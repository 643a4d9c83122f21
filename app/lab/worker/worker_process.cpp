#include "lab/worker/worker_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace tl::lab {
namespace {

constexpr std::size_t kOutputLimit = 64 * 1024;
constexpr int kRequestFd = 3;
constexpr int kReplyFd = 4;

Error system_error(const std::string& what) {
  return Error{ErrorKind::kIoError, what + ": " + std::strerror(errno)};
}

void close_quietly(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV (a bad memory access)";
    case SIGBUS:
      return "SIGBUS (a misaligned or unmapped access)";
    case SIGFPE:
      return "SIGFPE (an arithmetic fault such as an integer division by zero)";
    case SIGILL:
      return "SIGILL (an illegal instruction)";
    case SIGABRT:
      return "SIGABRT (the worker aborted)";
    case SIGKILL:
      return "SIGKILL (killed: a time or memory limit)";
    case SIGXCPU:
      return "SIGXCPU (its CPU time limit)";
    case SIGXFSZ:
      return "SIGXFSZ (its file size limit)";
    case SIGTERM:
      return "SIGTERM";
    default:
      return nullptr;
  }
}

void set_limit(int resource, std::uint64_t value) {
  if (value == 0) return;
  rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  if (resource == RLIMIT_CPU) limit.rlim_max = static_cast<rlim_t>(value + 1);  // SIGXCPU first
  ::setrlimit(resource, &limit);
}

}  // namespace

std::uint64_t user_task_count() {
  const std::string uid = std::to_string(::getuid());
  std::uint64_t tasks = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    std::string line;
    bool mine = false;
    std::uint64_t threads = 0;
    while (std::getline(status, line)) {
      // "Uid:\t<real>\t<effective>...": the real user is the one RLIMIT_NPROC counts.
      if (line.rfind("Uid:", 0) == 0) {
        const std::size_t start = line.find_first_of("0123456789");
        mine = start != std::string::npos && line.compare(start, uid.size(), uid) == 0 &&
               (start + uid.size() == line.size() ||
                !std::isdigit(static_cast<unsigned char>(line[start + uid.size()])));
      } else if (line.rfind("Threads:", 0) == 0) {
        threads = std::strtoull(line.c_str() + 8, nullptr, 10);
      }
    }
    if (mine) tasks += std::max<std::uint64_t>(threads, 1);
  }
  return tasks;
}

std::string WorkerExit::describe() const {
  if (exited) return "exited with status " + std::to_string(code);
  if (const char* name = signal_name(signal)) return std::string("killed by ") + name;
  return "killed by signal " + std::to_string(signal);
}

Result<std::unique_ptr<WorkerProcess>> WorkerProcess::start(const std::vector<std::string>& argv,
                                                            const WorkerLimits& limits) {
  if (argv.empty()) return Error{ErrorKind::kInvalidArgument, "no worker executable given"};
  // A worker that dies while a request is being written must not take the app with it.
  ::signal(SIGPIPE, SIG_IGN);
  int to_worker[2];
  int from_worker[2];
  int output[2];
  // Requests go through a Unix socket: a SharedRegion's descriptor travels with its request.
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, to_worker) != 0) {
    return system_error("socketpair");
  }
  if (::pipe2(from_worker, O_CLOEXEC) != 0) return system_error("pipe");
  if (::pipe2(output, O_CLOEXEC) != 0) return system_error("pipe");

  // Everything the child needs is prepared before fork: between fork and exec only
  // async-signal-safe calls are allowed (the window's process has threads).
  std::vector<char*> arguments;
  for (const std::string& a : argv) arguments.push_back(const_cast<char*>(a.c_str()));
  arguments.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return system_error("fork");
  if (pid == 0) {
    // The worker dies with the app: a killed app must not leave a kernel spinning for the rest
    // of RLIMIT_CPU. The signal survives execv. If the app died before the prctl, the worker was
    // already handed to init: the getppid() check catches that race.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(126);
    ::setpgid(0, 0);  // its own group: a kill reaches whatever it started
    // Moved above the targets first: a pipe may already sit on fd 3 or 4 (with close-on-exec).
    const int request = ::fcntl(to_worker[0], F_DUPFD, 10);
    const int reply = ::fcntl(from_worker[1], F_DUPFD, 10);
    const int printed = ::fcntl(output[1], F_DUPFD, 10);
    ::dup2(request, kRequestFd);
    ::dup2(reply, kReplyFd);
    ::dup2(printed, STDOUT_FILENO);
    ::dup2(printed, STDERR_FILENO);
    ::close(request);
    ::close(reply);
    ::close(printed);
    const int null_input = ::open("/dev/null", O_RDONLY);
    if (null_input >= 0) ::dup2(null_input, STDIN_FILENO);
    set_limit(RLIMIT_AS, limits.address_space_bytes);
    set_limit(RLIMIT_CPU, limits.cpu_seconds);
    set_limit(RLIMIT_FSIZE, limits.file_size_bytes);
    set_limit(RLIMIT_NPROC, limits.processes);
    set_limit(RLIMIT_NOFILE, limits.open_files);
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::execv(arguments[0], arguments.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from here, so that the group exists before any kill
  ::close(to_worker[0]);
  ::close(from_worker[1]);
  ::close(output[1]);
  ::fcntl(output[0], F_SETFL, O_NONBLOCK);

  std::unique_ptr<WorkerProcess> worker(new WorkerProcess());
  worker->pid_ = pid;
  worker->request_fd_ = to_worker[1];
  worker->reply_fd_ = from_worker[0];
  worker->output_fd_ = output[0];
  return worker;
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0) kill_now();
  close_quietly(request_fd_);
  close_quietly(reply_fd_);
  close_quietly(output_fd_);
}

void WorkerProcess::drain_output() {
  char chunk[4096];
  for (;;) {
    const ssize_t got = ::read(output_fd_, chunk, sizeof chunk);
    if (got <= 0) return;
    const std::size_t room = kOutputLimit > output_.size() ? kOutputLimit - output_.size() : 0;
    output_.append(chunk, std::min(room, static_cast<std::size_t>(got)));
    if (static_cast<std::size_t>(got) > room && !output_truncated_) {
      output_truncated_ = true;
      output_ += "\n[ThreadLab: the rest of the output was dropped, over 64 KiB]\n";
    }
  }
}

std::string WorkerProcess::take_output() {
  if (output_fd_ >= 0) drain_output();
  std::string taken;
  taken.swap(output_);
  return taken;
}

WorkerExit WorkerProcess::reap(bool wait) {
  if (pid_ <= 0) return last_exit_;
  int status = 0;
  const pid_t got = ::waitpid(pid_, &status, wait ? 0 : WNOHANG);
  if (got != pid_) return last_exit_;
  WorkerExit exit;
  if (WIFEXITED(status)) {
    exit.exited = true;
    exit.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    exit.signal = WTERMSIG(status);
  }
  pid_ = -1;
  last_exit_ = exit;
  return exit;
}

WorkerExit WorkerProcess::kill_now() {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    WorkerExit exit = reap(true);
    // Whatever it started in its group goes too (the kill above reached them).
    return exit;
  }
  return last_exit_;
}

namespace {

// -1 where the process is gone or its clock cannot be read.
long long process_cpu_ms(pid_t pid) {
  clockid_t clock{};
  timespec used{};
  if (::clock_getcpuclockid(pid, &clock) != 0 || ::clock_gettime(clock, &used) != 0) return -1;
  return static_cast<long long>(used.tv_sec) * 1000 + used.tv_nsec / 1000000;
}

}  // namespace

std::chrono::milliseconds WorkerProcess::cpu_time() const {
  if (pid_ <= 0) return std::chrono::milliseconds(0);
  const long long own = process_cpu_ms(pid_);
  if (own < 0) return std::chrono::milliseconds(-1);
  // The sandbox's relay waits while its child, the worker proper, computes.
  long long total = own;
  const std::string children =
      "/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) + "/children";
  std::ifstream list(children);
  long long child = 0;
  while (list >> child) {
    const long long used = process_cpu_ms(static_cast<pid_t>(child));
    if (used > 0) total += used;
  }
  return std::chrono::milliseconds(total);
}

Result<std::string> WorkerProcess::exchange(const std::string& request_line,
                                            std::chrono::milliseconds timeout, TimeBasis basis,
                                            int passed_fd) {
  if (pid_ <= 0) return Error{ErrorKind::kCudaStickyError, "the worker is not running"};
  if (Status sent = write_line(request_fd_, request_line, passed_fd); !sent) {
    const WorkerExit exit = reap(true);
    return Error{ErrorKind::kCudaStickyError, "the worker " + exit.describe()};
  }
  // On CPU time, the budget is the timeout on every core the emulator runs on (what the kernel
  // would get from an idle machine in that wall time), and a wall-clock backstop of ten times the
  // timeout catches a worker that waits instead of computing.
  const std::chrono::milliseconds cpu_start = basis == TimeBasis::kCpu ? cpu_time() : timeout;
  const bool on_cpu = basis == TimeBasis::kCpu && cpu_start.count() >= 0;
  const auto cpu_budget = timeout * std::max(1u, std::thread::hardware_concurrency());
  const auto deadline = std::chrono::steady_clock::now() + (on_cpu ? timeout * 10 : timeout);
  for (;;) {
    const std::size_t newline = reply_buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = reply_buffer_.substr(0, newline);
      reply_buffer_.erase(0, newline + 1);
      drain_output();
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    const bool out_of_cpu = on_cpu && cpu_time() - cpu_start > cpu_budget;
    if (left.count() <= 0 || out_of_cpu) {
      kill_now();
      drain_output();
      return Error{ErrorKind::kTooSlow,
                   "the kernel did not finish within " + std::to_string(timeout.count()) +
                       (on_cpu && out_of_cpu ? " ms of CPU time per core" : " ms") +
                       "; the worker was stopped (an endless loop?)"};
    }
    pollfd fds[2] = {{reply_fd_, POLLIN, 0}, {output_fd_, POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 100)));
    if (ready < 0 && errno != EINTR) return system_error("poll");
    if (fds[1].revents & POLLIN) drain_output();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char chunk[65536];
      const ssize_t got = ::read(reply_fd_, chunk, sizeof chunk);
      if (got > 0) {
        reply_buffer_.append(chunk, static_cast<std::size_t>(got));
        if (reply_buffer_.size() > kMaxLineBytes && reply_buffer_.find('\n') == std::string::npos) {
          // Not a reply any more (a kernel writing to the pipe): the app's memory is not its to
          // fill.
          kill_now();
          drain_output();
          reply_buffer_.clear();
          return Error{ErrorKind::kCudaStickyError,
                       "the worker's reply passed " + std::to_string(kMaxLineBytes >> 20) +
                           " MiB without ending; the worker was stopped"};
        }
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        drain_output();
        const WorkerExit exit = reap(true);
        return Error{ErrorKind::kCudaStickyError, "the worker " + exit.describe()};
      }
    }
  }
}

Result<std::string> read_line(int fd, std::string& buffer, std::vector<int>* received) {
  for (;;) {
    const std::size_t newline = buffer.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      return line;
    }
    if (buffer.size() > kMaxLineBytes) {
      return invalid_argument("a request line of more than " + std::to_string(kMaxLineBytes >> 20) +
                              " MiB: not the Lab's protocol");
    }
    char chunk[65536];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)];
    iovec io{chunk, sizeof chunk};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t got = ::recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    if (got < 0 && errno == ENOTSOCK) {  // a pipe
      message.msg_controllen = 0;
      got = ::read(fd, chunk, sizeof chunk);
    }
    if (got == 0) return Error{ErrorKind::kIoError, "end of requests"};
    if (got < 0) {
      if (errno == EINTR) continue;
      return system_error("read");
    }
    if (message.msg_controllen > 0) {
      for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
           header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
          int passed = -1;
          std::memcpy(&passed, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
          if (received != nullptr) {
            received->push_back(passed);
          } else {
            ::close(passed);
          }
        }
      }
    }
    buffer.append(chunk, static_cast<std::size_t>(got));
  }
}

Status write_line(int fd, const std::string& line, int passed_fd) {
  std::string data = line + "\n";
  std::size_t done = 0;
  if (passed_fd >= 0) {
    // The descriptor rides on the first bytes; the rest follows as plain data.
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    iovec io{data.data(), data.size()};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &passed_fd, sizeof(int));
    ssize_t sent = -1;
    do {
      sent = ::sendmsg(fd, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) return system_error("sendmsg");
    done = static_cast<std::size_t>(sent);
  }
  while (done < data.size()) {
    const ssize_t wrote = ::write(fd, data.data() + done, data.size() - done);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return system_error("write");
    }
    done += static_cast<std::size_t>(wrote);
  }
  return Status::ok();
}

Result<SharedRegion> SharedRegion::create(std::size_t bytes) {
  SharedRegion region;
  region.bytes_ = std::max<std::size_t>(bytes, 1);
  region.fd_ = ::memfd_create("threadlab-lab", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (region.fd_ < 0) return system_error("memfd_create");
  if (::ftruncate(region.fd_, static_cast<off_t>(region.bytes_)) != 0) {
    return Error{ErrorKind::kOutOfMemory,
                 "could not make " + std::to_string(region.bytes_) + " bytes of shared memory"};
  }
  // Fixed in size from here on, for both sides: a worker that could shrink it would make the
  // app's reads past the new end fault (SIGBUS) in the app.
  if (::fcntl(region.fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    return system_error("sealing shared memory");
  }
  region.address_ =
      ::mmap(nullptr, region.bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, region.fd_, 0);
  if (region.address_ == MAP_FAILED) {
    region.address_ = nullptr;
    return system_error("mmap");
  }
  return region;
}

Result<SharedRegion> SharedRegion::adopt(int fd, std::size_t bytes) {
  SharedRegion region;
  region.bytes_ = bytes;
  struct stat info {};
  if (fd < 0 || ::fstat(fd, &info) != 0) {
    if (fd >= 0) ::close(fd);
    return Error{ErrorKind::kIoError, "no shared memory came with the request"};
  }
  if (static_cast<std::uint64_t>(info.st_size) < bytes) {
    ::close(fd);
    return Error{ErrorKind::kIoError, "the shared memory is smaller than the request says"};
  }
  region.address_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (region.address_ == MAP_FAILED) {
    region.address_ = nullptr;
    return system_error("mmap");
  }
  return region;
}

SharedRegion::SharedRegion(SharedRegion&& other) noexcept {
  *this = std::move(other);
}

SharedRegion& SharedRegion::operator=(SharedRegion&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    address_ = std::exchange(other.address_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

SharedRegion::~SharedRegion() {
  release();
}

void SharedRegion::release() {
  if (address_ != nullptr) ::munmap(address_, bytes_);
  if (fd_ >= 0) ::close(fd_);
  address_ = nullptr;
  fd_ = -1;
}

Result<std::string> this_executable() {
  char path[4096];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return system_error("readlink /proc/self/exe");
  return std::string(path, static_cast<std::size_t>(length));
}

}  // namespace tl::lab
