// The worker's emulator path: the learner's source, with the Lab's prelude, built by the system C++
// compiler against the emulator's CUDA shim (lab/emulator/learner_compiler.hpp), traced and
// untraced, cached by hash; launched on the grid executor with the learner's grid, block and
// dynamic shared memory. As on the GPU, each array is copied into a buffer of its own (one spare
// element past its end), run on, and only the outputs, traces and fault record go back to the
// region. Runs only inside `threadlab worker`: the kernel is native code.

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab/emulator/learner_compiler.hpp"
#include "lab/emulator/learner_module.hpp"
#include "lab/lab_prelude.hpp"
#include "lab/worker/kernel_parameters.hpp"
#include "lab/worker/lab_worker.hpp"

namespace tl::lab {
namespace {

// Static shared memory per block on every GPU ThreadLab supports (more needs dynamic shared
// memory and an opt-in).
constexpr std::uint64_t kStaticSharedLimit = 48 * 1024;

class EmulatorWorkerBackend final : public WorkerBackend {
 public:
  CompileReply compile(const CompileRequest& request) override {
    CompileReply reply;
    reply.device = "emulator";
    traced_.reset();
    untraced_.reset();
    std::filesystem::path cache = request.cache_dir;
    if (cache.empty()) {
      std::error_code error;
      cache = std::filesystem::temp_directory_path(error) /
              ("threadlab-lab-" + std::to_string(static_cast<long>(::getpid())));
    }
    const auto start = std::chrono::steady_clock::now();
    bool all_cached = true;
    for (const bool traced : {true, false}) {
      LearnerCompileOptions options;
      options.preludes = {{"threadlab_lab.cuh", std::string(lab_prelude_source())}};
      if (traced) {
        options.defines = {"TL_LAB_TRACED"};
        // The checked build also looks for shared-memory races; the timed one runs uninstrumented.
        options.check_shared_races = true;
      }
      const LearnerCompileResult compiled =
          compile_learner_kernel(request.source, request.kernel_name, cache, options);
      if (!compiled) {
        const LearnerCompileFailure& failure = compiled.failure();
        reply.error = failure.kind == LearnerCompileFailure::Kind::kDoesNotCompile
                          ? "kernel.cu does not compile"
                          : failure.message;
        reply.log = failure.diagnostics;
        return reply;
      }
      if (traced) reply.log = compiled.build().diagnostics;
      all_cached = all_cached && compiled.build().from_cache;
      // A GPU's compiler refuses a kernel with more static shared memory than a block may have;
      // the emulator, whose __shared__ is ordinary memory, would run it. Refused the same way.
      const EmulatedLearnerModule::StaticShared shared =
          EmulatedLearnerModule::static_shared(compiled.build().shared_object);
      if (shared.bytes > kStaticSharedLimit) {
        reply.error = "kernel.cu uses too much static shared memory";
        reply.log = "kernel.cu: error: the kernel's static __shared__ variables take " +
                    std::to_string(shared.bytes) + " bytes (the largest, " + shared.largest + ", " +
                    std::to_string(shared.largest_bytes) +
                    " bytes); a block may have at most 48 KiB (49152 bytes) of static shared "
                    "memory, and a GPU's compiler refuses more (\"uses too much shared data\")\n";
        return reply;
      }
      Result<EmulatedLearnerModule> module =
          EmulatedLearnerModule::load(compiled.build().shared_object);
      if (!module) {
        reply.error = module.message();
        return reply;
      }
      (traced ? traced_ : untraced_).emplace(std::move(*module));
    }
    reply.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    reply.from_cache = all_cached;
    reply.ok = true;
    return reply;
  }

  RunReply run(const RunRequest& request, std::byte* region) override {
    RunReply reply;
    const std::optional<EmulatedLearnerModule>& module = request.traced ? traced_ : untraced_;
    if (!module) {
      reply.error = "nothing was compiled before the run";
      return reply;
    }
    if (module->parameter_count() != request.arguments.size()) {
      reply.error = "the kernel takes " + std::to_string(module->parameter_count()) +
                    " parameters but the exercise passes " +
                    std::to_string(request.arguments.size());
      return reply;
    }
    // The kernel's own copies: what it does to them outside the outputs stays here.
    std::vector<std::vector<std::byte>> buffers;
    buffers.reserve(2 * request.arguments.size() + 1);
    auto copy_in = [&](std::uint64_t offset, std::size_t bytes) -> std::byte* {
      std::vector<std::byte>& buffer = buffers.emplace_back(std::max<std::size_t>(bytes, 4));
      std::memcpy(buffer.data(), region + offset, bytes);
      return buffer.data();
    };
    std::byte* fault = request.traced ? copy_in(request.fault_offset, 72) : nullptr;
    std::vector<ParameterSlot> storage(request.arguments.size());
    std::vector<void*> pointers;
    std::vector<std::pair<const std::byte*, const WireArgument*>> outputs;
    std::vector<std::pair<const std::byte*, const WireArgument*>> traces;
    for (std::size_t i = 0; i < request.arguments.size(); ++i) {
      const WireArgument& a = request.arguments[i];
      pointers.push_back(storage[i].data());
      if (a.form == ArgumentForm::kScalar) {
        write_parameter(a, i, 0, 0, 0, storage[i]);
        continue;
      }
      const std::size_t elements = static_cast<std::size_t>(a.rows * a.cols);
      // One spare element past the end: the traced views send out-of-range accesses there.
      std::byte* data = copy_in(a.offset, (elements + 1) * 4);
      if (a.copy_back) outputs.emplace_back(data, &a);
      std::byte* trace = nullptr;
      if (request.traced && a.trace_offset >= 0) {
        trace = copy_in(static_cast<std::uint64_t>(a.trace_offset), elements * 16);
        traces.emplace_back(trace, &a);
      }
      const auto address = [](const std::byte* p) { return reinterpret_cast<std::uint64_t>(p); };
      write_parameter(a, i, address(data), address(trace), address(fault), storage[i]);
    }
    auto launch = [&] {
      return module->launch(request.grid, request.block, request.dynamic_shared_bytes,
                            pointers.data());
    };
    if (Status status = launch(); !status) {
      reply.error = status.message();
      return reply;
    }
    if (request.traced) reply.finding = module->last_shared_memory_race();
    // The outputs of this one launch are what the app judges: copied out before any timed repeat
    // runs again (a sum through atomics would keep adding).
    for (const auto& [data, a] : outputs) {
      std::memcpy(region + a->offset, data, static_cast<std::size_t>(a->rows * a->cols) * 4);
    }
    for (const auto& [trace, a] : traces) {
      std::memcpy(region + a->trace_offset, trace,
                  static_cast<std::size_t>(a->rows * a->cols) * 16);
    }
    if (fault != nullptr) std::memcpy(region + request.fault_offset, fault, 72);
    for (int repeat = 0; repeat < request.timed_repeats; ++repeat) {
      const auto start = std::chrono::steady_clock::now();
      if (Status status = launch(); !status) {
        reply.error = status.message();
        return reply;
      }
      reply.milliseconds.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    reply.ok = true;
    return reply;
  }

  RunReply time_copy(const CopyRequest& request) override {
    // The emulator's "device memory" is the host's: its ceiling is a memcpy on one CPU thread,
    // half the traffic read and half written.
    RunReply reply;
    const std::size_t half = std::max<std::size_t>(request.bytes / 2, 4);
    std::vector<std::byte> source(half, std::byte{0x3f});
    std::vector<std::byte> target(half);
    std::memcpy(target.data(), source.data(), half);  // first touch, untimed
    for (int repeat = 0; repeat < std::max(request.repeats, 1); ++repeat) {
      const auto start = std::chrono::steady_clock::now();
      std::memcpy(target.data(), source.data(), half);
      const auto stop = std::chrono::steady_clock::now();
      // Keeps the copy from being optimised away: its result is read.
      if (target[half - 1] != source[half - 1]) break;
      reply.milliseconds.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    reply.ok = true;
    return reply;
  }

 private:
  std::optional<EmulatedLearnerModule> traced_;
  std::optional<EmulatedLearnerModule> untraced_;
};

}  // namespace

std::unique_ptr<WorkerBackend> make_emulator_worker_backend() {
  return std::make_unique<EmulatorWorkerBackend>();
}

}  // namespace tl::lab
