#pragma once
// `threadlab worker`: the process that compiles and runs the learner's kernel. It reads requests
// (lab_protocol.hpp) on one descriptor and answers on another until the app closes the pipe or
// something fatal happens (a sticky CUDA error poisons this process's context: it answers, then
// ends, and the app starts a fresh worker).

#include <cstddef>
#include <memory>

#include "lab/worker/lab_protocol.hpp"
#include "lab/worker/sandbox.hpp"

namespace tl::lab {

// One way of compiling and running a kernel (the GPU through NVRTC and the driver, or the emulator
// through the host compiler). `region` is the request's shared memory, already mapped.
class WorkerBackend {
 public:
  virtual ~WorkerBackend() = default;
  virtual CompileReply compile(const CompileRequest& request) = 0;
  virtual RunReply run(const RunRequest& request, std::byte* region) = 0;
  // Times the device copying request.bytes of traffic (lab_protocol.hpp, CopyRequest).
  virtual RunReply time_copy(const CopyRequest& request) = 0;
};

std::unique_ptr<WorkerBackend> make_gpu_worker_backend();
std::unique_ptr<WorkerBackend> make_emulator_worker_backend();

// The worker's main loop. Returns the process exit status. `sandbox` is what enter_sandbox applied
// (reported to the app on request).
int run_lab_worker(int request_fd, int reply_fd, const SandboxLayers& sandbox);

// 64-bit FNV-1a, for cache file names: stable across runs and machines.
[[nodiscard]] std::uint64_t fnv1a(std::string_view text,
                                  std::uint64_t hash = 1469598103934665603ull);

}  // namespace tl::lab
