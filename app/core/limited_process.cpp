#include "core/limited_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace tl {
namespace {

double children_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ProcessResult run_limited_process(const std::vector<std::string>& argv,
                                  const std::filesystem::path& working_dir,
                                  const std::filesystem::path& output_file,
                                  const ProcessLimits& limits) {
  ProcessResult result;
  if (argv.empty()) return result;
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const double cpu_before = children_cpu_seconds();
  // fork and exec rather than posix_spawn, to set the limits in between; the child makes only
  // system calls there (the caller may have threads).
  const pid_t pid = ::fork();
  if (pid < 0) return result;
  if (pid == 0) {
    if (::chdir(working_dir.c_str()) != 0) ::_exit(126);
    const int out = ::open(output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (out < 0 || in < 0) ::_exit(126);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    ::dup2(in, STDIN_FILENO);
    const rlimit cpu{static_cast<rlim_t>(limits.cpu_seconds),
                     static_cast<rlim_t>(limits.cpu_seconds + 1)};
    const rlimit memory{limits.memory_bytes, limits.memory_bytes};
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::setrlimit(RLIMIT_AS, &memory);
    ::execve(args[0], args.data(), environ);
    ::_exit(127);
  }
  result.started = true;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + limits.wall;
  for (;;) {
    const pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid) break;
    if (got < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      // A tool that waits instead of computing: its CPU limit never comes.
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      result.over_time = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (children_cpu_seconds() - cpu_before >= limits.cpu_seconds - 0.5) result.over_time = true;
  result.output = read_whole_file(output_file);
  if (result.exit_code == 127 && result.output.empty()) result.started = false;
  return result;
}

}  // namespace tl
