// The worker's emulator path. The host-compiler build of learners' kernels against the emulator's
// CUDA shim is being written (issue 17, part 3); until it lands this backend refuses with that
// reason instead of pretending to run anything.

#include "lab/worker/lab_worker.hpp"

namespace tl::lab {
namespace {

class UnbuiltEmulatorBackend final : public WorkerBackend {
 public:
  CompileReply compile(const CompileRequest&) override {
    CompileReply reply;
    reply.device = "emulator";
    reply.error = "the Lab cannot run kernels on the emulator in this build yet; use --backend gpu";
    return reply;
  }
  RunReply run(const RunRequest&, std::byte*) override {
    return RunReply{false, "the Lab's emulator path is not built", false, {}, {}};
  }
};

}  // namespace

std::unique_ptr<WorkerBackend> make_emulator_worker_backend() {
  return std::make_unique<UnbuiltEmulatorBackend>();
}

}  // namespace tl::lab
