#pragma once
// The one place that knows how a worker process is started, limited, talked to and killed (POSIX:
// fork/exec, setrlimit, a process group, a socket pair and a pipe, memfd shared memory). A port to
// another system replaces this file and its .cpp; nothing else in the Lab touches processes.
//
// The learner's code runs in the worker. A CUDA fault poisons the worker's context for good and an
// endless kernel never returns, so the app only ever sees a reply, a timeout (it kills the
// worker's whole process group) or the worker's death (it says which signal), and starts a fresh
// one.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace tl::lab {

// Limits applied to the worker before it runs anything: a runaway allocation, a file written in a
// loop, a fork bomb. What keeps a hostile program in is the sandbox the worker enters itself
// (sandbox.hpp); these are the part of it the app sets. Zero means "no limit".
struct WorkerLimits {
  std::uint64_t address_space_bytes = 0;  // RLIMIT_AS; CUDA reserves huge address ranges: keep 0
  std::uint64_t cpu_seconds = 0;          // RLIMIT_CPU, over the worker's whole life
  std::uint64_t file_size_bytes = 0;      // RLIMIT_FSIZE
  std::uint64_t processes = 0;            // RLIMIT_NPROC (per user: counts the user's others too)
  std::uint64_t open_files = 0;           // RLIMIT_NOFILE
};

// The processes and threads the calling user runs now (RLIMIT_NPROC counts them all, per real
// user): a worker's process limit is this plus its own headroom. 0 where /proc cannot be read.
[[nodiscard]] std::uint64_t user_task_count();

// How a worker ended, for the message the learner reads.
struct WorkerExit {
  bool exited = false;  // normal exit with `code`; otherwise killed by `signal`
  int code = 0;
  int signal = 0;
  [[nodiscard]] std::string describe() const;  // "exited with status 3", "killed by SIGSEGV"
};

class WorkerProcess {
 public:
  // Starts `argv` (argv[0] an executable path) with the control channel on its fds 3 (requests:
  // a Unix socket, so that shared memory can travel with them) and 4 (replies, a pipe); its stdout
  // and stderr are captured for the learner (their printf output).
  static Result<std::unique_ptr<WorkerProcess>> start(const std::vector<std::string>& argv,
                                                      const WorkerLimits& limits);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends one request line and waits for one reply line. On timeout the worker is killed and the
  // error is kTooSlow; if the worker dies first, the error says how (and it is not restarted).
  //
  // TimeBasis::kCpu times the worker's CPU time instead (the emulator: a kernel's work is CPU
  // work, and a busy machine must not fail a correct kernel), with a wall-clock backstop.
  enum class TimeBasis { kWall, kCpu };
  // `passed_fd`, when not -1, travels with the request (SCM_RIGHTS): a SharedRegion's memory.
  [[nodiscard]] Result<std::string> exchange(const std::string& request_line,
                                             std::chrono::milliseconds timeout,
                                             TimeBasis basis = TimeBasis::kWall,
                                             int passed_fd = -1);
  // The CPU time the worker has used so far, with its direct children's (a sandboxed worker runs
  // as the child of the process started here); -1 where the system cannot say.
  [[nodiscard]] std::chrono::milliseconds cpu_time() const;

  // What the worker printed so far (at most 64 KiB; later output is dropped with a note).
  [[nodiscard]] std::string take_output();
  [[nodiscard]] bool alive() const { return pid_ > 0; }
  // Kills the worker's process group and reaps it; returns how it ended.
  WorkerExit kill_now();

 private:
  WorkerProcess() = default;
  void drain_output();
  WorkerExit reap(bool wait);

  int pid_ = -1;
  int request_fd_ = -1;
  int reply_fd_ = -1;
  int output_fd_ = -1;
  std::string reply_buffer_;
  std::string output_;
  bool output_truncated_ = false;
  WorkerExit last_exit_;
};

// A block of shared memory both processes map: the kernel's arguments go in, its outputs and
// traces come back, with no per-element messages. It has no name anywhere (a memfd): it reaches the
// worker as a descriptor sent with the request, so there is no path a worker could replace and
// nothing left behind when either side is killed. Its size is sealed: a worker cannot shrink it
// under the app's mapping (which would make the app's reads fault).
class SharedRegion {
 public:
  static Result<SharedRegion> create(std::size_t bytes);  // in the app
  // In the worker: maps the memory of `fd` (received with the request) and closes `fd`.
  static Result<SharedRegion> adopt(int fd, std::size_t bytes);
  SharedRegion(SharedRegion&& other) noexcept;
  SharedRegion& operator=(SharedRegion&& other) noexcept;
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;
  ~SharedRegion();

  [[nodiscard]] std::byte* data() const { return static_cast<std::byte*>(address_); }
  [[nodiscard]] std::size_t size() const { return bytes_; }
  // The descriptor to send to the worker (the app's side; -1 in the worker).
  [[nodiscard]] int fd() const { return fd_; }

 private:
  SharedRegion() = default;
  void release();
  int fd_ = -1;
  void* address_ = nullptr;
  std::size_t bytes_ = 0;
};

// The path of the running executable (the worker is the same `threadlab`, started as `worker`).
[[nodiscard]] Result<std::string> this_executable();

// The longest line either side reads: a request holds a source of at most 1 MiB, a reply at most
// the compiler's log and 64 KiB of the kernel's output. Past it, what comes is not the protocol
// (`threadlab worker 3</dev/zero`, a kernel writing to the pipe), and reading on would only fill
// memory.
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

// Reads one line from `fd` (blocking), without the newline; an error at end of input (kIoError)
// or past kMaxLineBytes without a newline (kInvalidArgument). Descriptors that arrive with the
// bytes (a Unix socket's SCM_RIGHTS) are appended to `received`, when given, and closed otherwise.
[[nodiscard]] Result<std::string> read_line(int fd, std::string& buffer,
                                            std::vector<int>* received = nullptr);
// Writes the whole line and a newline to `fd`; `passed_fd` goes with it (fd must be a socket).
[[nodiscard]] Status write_line(int fd, const std::string& line, int passed_fd = -1);

}  // namespace tl::lab
