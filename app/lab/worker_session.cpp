#include "lab/worker_session.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include "lab/worker/sandbox.hpp"

namespace tl::lab {

Result<std::string> WorkerSession::cache_dir() {
  if (options_.private_cache) {
    Result<std::string> scratch = scratch_dir();
    if (!scratch) return scratch.error();
    return *scratch + "/cache";
  }
  return options_.cache_dir.empty() ? default_lab_cache_dir() : options_.cache_dir;
}

Status WorkerSession::start() {
  if (worker_ && worker_->alive()) return Status::ok();
  std::string executable = options_.worker_executable;
  if (executable.empty()) {
    Result<std::string> self = this_executable();
    if (!self) return self.error();
    executable = *self;
  }
  if (::access(executable.c_str(), X_OK) != 0) {
    return Error{ErrorKind::kIoError,
                 "cannot start the Lab's worker: " + executable + " is not an executable file"};
  }
  WorkerLimits limits;
  limits.file_size_bytes = 256ull << 20;  // cubins and shared objects, never gigabytes
  // A backstop for a worker that spins without end between requests (each run has its own
  // wall-clock timeout): a whole check of the largest exercise takes a few CPU seconds.
  limits.cpu_seconds = 600;
  // A fork bomb stops within a thousand tasks; the CUDA driver's and the emulator's own
  // threads (one per core) fit in the headroom. Root is exempt (the kernel ignores the limit).
  if (const std::uint64_t tasks = user_task_count(); tasks > 0) {
    limits.processes = tasks + 1024 + std::thread::hardware_concurrency();
  }
  if (options_.backend == LabBackend::kEmulator) {
    // The emulator's kernels are native code in this process: cap what a runaway can take.
    limits.address_space_bytes = 8ull << 30;
    limits.open_files = 1024;
  }
  std::vector<std::string> argv = {executable, "worker"};
  if (options_.sandbox) {
    Result<std::vector<std::string>> arguments = sandbox_arguments_for_worker();
    if (!arguments) return arguments.error();
    argv.insert(argv.end(), arguments->begin(), arguments->end());
  }
  Result<std::unique_ptr<WorkerProcess>> worker = WorkerProcess::start(argv, limits);
  if (!worker) return worker.error();
  worker_ = std::move(*worker);
  return Status::ok();
}

Status WorkerSession::restart_compiled(const std::string& compile_line,
                                       std::chrono::milliseconds timeout) {
  Result<std::string> line = exchange(compile_line, timeout);
  if (!line) return line.error();
  Result<CompileReply> reply = decode_compile_reply(*line);
  if (!reply) return reply.error();
  if (!reply->ok) return Error{ErrorKind::kIoError, reply->error};
  return Status::ok();
}

Result<std::string> WorkerSession::scratch_dir() {
  if (!scratch_.empty()) return scratch_;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp == '/' ? tmp : "/tmp") + "/threadlab-lab-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Error{ErrorKind::kIoError,
                 "cannot make the Lab's scratch folder " + pattern + ": " + std::strerror(errno)};
  }
  scratch_ = pattern;
  return scratch_;
}

Result<std::vector<std::string>> WorkerSession::sandbox_arguments_for_worker() {
  SandboxPolicy policy;
  policy.gpu = options_.backend == LabBackend::kGpu;
  Result<std::string> scratch = scratch_dir();
  if (!scratch) return scratch.error();
  policy.writable.push_back(*scratch);
  Result<std::string> cache = cache_dir();
  if (!cache) return cache.error();
  if (!cache->empty()) {
    std::error_code error;
    std::filesystem::create_directories(*cache, error);
    if (error) {
      return Error{ErrorKind::kIoError,
                   "cannot make the Lab's cache folder " + *cache + ": " + error.message()};
    }
    if (!options_.private_cache) policy.writable.push_back(*cache);
  }
  for (const char* variable : {"LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr) continue;
    std::stringstream dirs(value);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (!dir.empty() && dir.front() == '/') policy.readable.push_back(dir);
    }
  }
  for (const std::string& path : extra_readable_) policy.readable.push_back(path);
  return sandbox_arguments(policy);
}

}  // namespace tl::lab
