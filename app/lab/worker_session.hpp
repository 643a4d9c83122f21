#pragma once
// One Lab worker for one piece of work (a check, a memory recording, an inspection): started on
// first use with the options' backend and sandbox, replaced after it dies. It owns the scratch
// folder its workers write in (temporary files, and the compiled kernels of a private cache),
// removed with it.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "lab/lab_check.hpp"
#include "lab/worker/worker_process.hpp"

namespace tl::lab {

class WorkerSession {
 public:
  explicit WorkerSession(const LabOptions& options) : options_(options) {}
  ~WorkerSession() {
    worker_.reset();
    if (!scratch_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_, ignored);  // never follows a link out of it
    }
  }
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  // Where compiled kernels are kept for this check.
  Result<std::string> cache_dir();

  Status start();

  Result<std::string> exchange(const std::string& line, std::chrono::milliseconds timeout,
                               WorkerProcess::TimeBasis basis = WorkerProcess::TimeBasis::kWall,
                               int passed_fd = -1) {
    if (Status started = start(); !started) return started.error();
    Result<std::string> reply = worker_->exchange(line, timeout, basis, passed_fd);
    printed_ += worker_->take_output();
    return reply;
  }

  // After a timeout killed the worker: a fresh one, given the same compile request again (a
  // cache hit), so that the run can be tried once more.
  Status restart_compiled(const std::string& compile_line, std::chrono::milliseconds timeout);

  std::string take_printed() { return std::exchange(printed_, {}); }

  // The folder only this session's workers write in (made on first use, removed with the session).
  Result<std::string> scratch_dir();

  // A folder (or file) the worker may read and run programs from, beyond the toolchain's: the
  // CUDA disassembler where it is installed outside /usr. Before the worker starts.
  void allow_reading(std::string path) { extra_readable_.push_back(std::move(path)); }

 private:
  // What the worker may touch: its scratch folder and the kernel cache, read-write; the folders
  // the dynamic loader and the CUDA libraries are found in, read-only.
  Result<std::vector<std::string>> sandbox_arguments_for_worker();

  const LabOptions& options_;
  std::unique_ptr<WorkerProcess> worker_;
  std::string printed_;
  std::string scratch_;
  std::vector<std::string> extra_readable_;
};

}  // namespace tl::lab
