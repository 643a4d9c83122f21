// The worker's emulator path: the learner's source, with the Lab's prelude, built by the system C++
// compiler against the emulator's CUDA shim (lab/emulator/learner_compiler.hpp), traced and
// untraced, cached by hash; launched on the grid executor with the learner's grid, block and
// dynamic shared memory. As on the GPU, each array is copied into a buffer of its own (one spare
// element past its end), run on, and only the outputs, traces and fault record go back to the
// region. Runs only inside `threadlab worker`: the kernel is native code.
//
// A compile with record_memory makes the memory-recording build alone; a run with it records the
// kernel's accesses to its arrays and shared memory and answers with the per-line table
// (lab_protocol.hpp, MemoryReply), counted here by core/memory so that only the table, each
// line's first requests and each array's loads per element, not every lane's records, cross the
// pipe.

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/memory/load_budget.hpp"
#include "core/memory/memory_model.hpp"
#include "core/memory/warp_requests.hpp"
#include "core/user_files.hpp"
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

// cudaMalloc's alignment. Each array gets a buffer of its own aligned so, as on a GPU: the sectors
// and lines a recording counts depend on where an array starts, and a float4 load of element 0
// must be aligned here as it is there.
constexpr std::size_t kDeviceAlignment = 256;

// Each buffer has pages of its own with an inaccessible page on either side: a kernel with plain
// pointers that runs far past an array (no guard at all, a wrong stride) faults at once — the
// check says "killed by SIGSEGV" — instead of corrupting the worker's heap and failing somewhere
// else. Near the end, the app's guard zone (lab_protocol.hpp) names the element. Pages are
// 4096-byte aligned, so cudaMalloc's 256 bytes hold too.
struct UnmapDeleter {
  std::size_t mapped = 0;
  void operator()(std::byte* p) const {
    if (p != nullptr) ::munmap(p - ::sysconf(_SC_PAGESIZE), mapped);
  }
};
using DeviceBuffer = std::unique_ptr<std::byte[], UnmapDeleter>;

DeviceBuffer device_buffer(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  static_assert(kDeviceAlignment <= 4096);
  const std::size_t usable = (std::max<std::size_t>(bytes, 4) + page - 1) / page * page;
  const std::size_t mapped = usable + 2 * page;
  void* base = ::mmap(nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return DeviceBuffer(nullptr, UnmapDeleter{0});
  auto* start = static_cast<std::byte*>(base) + page;
  if (::mprotect(start, usable, PROT_READ | PROT_WRITE) != 0) {
    ::munmap(base, mapped);
    return DeviceBuffer(nullptr, UnmapDeleter{0});
  }
  return DeviceBuffer(start, UnmapDeleter{mapped});
}

// Which argument's array each row of the table touches: the records' addresses against the
// arrays' buffers, per (line, space, kind) as the table groups them.
std::vector<int> row_arguments(
    const EmulatedLearnerModule::MemoryRecording& recording, const memory::MemoryTable& table,
    const std::vector<std::pair<int, EmulatedLearnerModule::MemoryRange>>& arrays) {
  using Key = std::tuple<int, memory::MemorySpace, memory::AccessKind>;
  std::map<Key, int> argument_of;
  for (const memory::LaneRecord& r : recording.records) {
    if (r.space != memory::MemorySpace::kGlobal) continue;
    const int line = r.site < recording.site_lines.size() ? recording.site_lines[r.site] : 0;
    int argument = MemoryReply::kNoArray;
    for (const auto& [index, range] : arrays) {
      if (r.address >= range.address && r.address < range.address + range.bytes) {
        argument = index;
        break;
      }
    }
    if (argument == MemoryReply::kNoArray) continue;
    auto [it, inserted] = argument_of.try_emplace(Key{line, r.space, r.kind}, argument);
    if (!inserted && it->second != argument) it->second = MemoryReply::kSeveralArrays;
  }
  std::vector<int> arguments;
  for (const memory::LineTotals& row : table.rows) {
    const auto it = argument_of.find(Key{row.line, row.space, row.kind});
    arguments.push_back(it == argument_of.end() ? MemoryReply::kNoArray : it->second);
  }
  return arguments;
}

// Each row's first requests (MemoryReply::kRequestsPerRow), in recorded order, for the picture.
std::vector<std::vector<memory::WarpRequest>> row_requests(
    const std::vector<memory::WarpRequest>& requests, const std::vector<int>& site_lines,
    const memory::MemoryTable& table) {
  using Key = std::tuple<int, memory::MemorySpace, memory::AccessKind>;
  std::map<Key, std::size_t> row_of;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const memory::LineTotals& row = table.rows[i];
    row_of.emplace(Key{row.line, row.space, row.kind}, i);
  }
  std::vector<std::vector<memory::WarpRequest>> kept(table.rows.size());
  for (const memory::WarpRequest& request : requests) {
    if (request.lanes.empty()) continue;
    const int line = request.site < site_lines.size() ? site_lines[request.site] : 0;
    const auto it = row_of.find(Key{line, request.space, request.kind});
    if (it == row_of.end() || kept[it->second].size() >= MemoryReply::kRequestsPerRow) continue;
    memory::WarpRequest copy = request;
    copy.site = 0;  // the worker's numbering; the row says where
    kept[it->second].push_back(std::move(copy));
  }
  return kept;
}

class EmulatorWorkerBackend final : public WorkerBackend {
 public:
  CompileReply compile(const CompileRequest& request) override {
    CompileReply reply;
    reply.device = "emulator";
    traced_.reset();
    untraced_.reset();
    recording_.reset();
    std::filesystem::path cache = request.cache_dir;
    if (cache.empty()) {
      std::error_code error;
      cache =
          std::filesystem::temp_directory_path(error) / ("threadlab-lab-" + unique_process_tag());
    }
    const auto start = std::chrono::steady_clock::now();
    bool all_cached = true;
    enum class Build { kTraced, kUntraced, kRecording };
    const std::vector<Build> builds = request.record_memory
                                          ? std::vector<Build>{Build::kRecording}
                                          : std::vector<Build>{Build::kTraced, Build::kUntraced};
    for (const Build build : builds) {
      const bool traced = build == Build::kTraced;
      LearnerCompileOptions options;
      options.preludes = {{"threadlab_lab.cuh", std::string(lab_prelude_source())}};
      // Untraced views: the recording sees the kernel's own accesses, not the trace's.
      options.record_memory = build == Build::kRecording;
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
      if (build != Build::kUntraced) reply.log = compiled.build().diagnostics;
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
      (build == Build::kTraced     ? traced_
       : build == Build::kUntraced ? untraced_
                                   : recording_)
          .emplace(std::move(*module));
    }
    reply.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    reply.from_cache = all_cached;
    reply.ok = true;
    return reply;
  }

  RunReply run(const RunRequest& request, std::byte* region) override {
    RunReply reply;
    const std::optional<EmulatedLearnerModule>& module = request.record_memory ? recording_
                                                         : request.traced      ? traced_
                                                                               : untraced_;
    if (!module) {
      reply.error = request.record_memory
                        ? "the memory-recording build was not compiled before the run"
                        : "nothing was compiled before the run";
      return reply;
    }
    if (request.record_memory && request.traced) {
      reply.error = "a memory recording runs the untraced views";
      return reply;
    }
    if (module->parameter_count() != request.arguments.size()) {
      reply.error = "the kernel takes " + std::to_string(module->parameter_count()) +
                    " parameters but the exercise passes " +
                    std::to_string(request.arguments.size());
      return reply;
    }
    // The kernel's own copies: what it does to them outside the outputs stays here.
    std::vector<DeviceBuffer> buffers;
    buffers.reserve(2 * request.arguments.size() + 1);
    auto copy_in = [&](std::uint64_t offset, std::size_t bytes) -> std::byte* {
      DeviceBuffer& buffer = buffers.emplace_back(device_buffer(bytes));
      if (buffer == nullptr) return nullptr;
      std::memcpy(buffer.get(), region + offset, bytes);
      return buffer.get();
    };
    // The fault record and, after it, the per-thread flags (WireFault::thread_flags).
    const std::size_t fault_bytes = static_cast<std::size_t>(request.fault_bytes);
    std::byte* fault = request.traced ? copy_in(request.fault_offset, fault_bytes) : nullptr;
    // The arrays as the recording is told of them: accesses elsewhere are not the kernel's data.
    std::vector<std::pair<int, EmulatedLearnerModule::MemoryRange>> arrays;
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
      if (a.element_bytes != 4) {
        reply.error = "argument " + std::to_string(i) + " has " + std::to_string(a.element_bytes) +
                      "-byte elements; the Lab's arrays hold 4-byte ones";
        return reply;
      }
      // The guard zone past the end travels too (lab_protocol.hpp): the traced views send
      // out-of-range accesses to its first element, and the app reads its canaries back.
      std::byte* data = copy_in(a.offset, (elements + a.guard_elements) * a.element_bytes);
      if (data == nullptr) {
        reply.error = "the worker could not allocate argument " + std::to_string(i);
        return reply;
      }
      arrays.emplace_back(static_cast<int>(i),
                          EmulatedLearnerModule::MemoryRange{reinterpret_cast<std::uint64_t>(data),
                                                             elements * a.element_bytes});
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
    if (request.record_memory) {
      EmulatedLearnerModule::MemoryRecordingOptions options;
      if (request.record_blocks > 0) {
        options.blocks = memory::blocks_to_record(request.grid.volume(), request.record_blocks);
      }
      for (const auto& [index, range] : arrays) options.global.push_back(range);
      Result<EmulatedLearnerModule::MemoryRecording> recorded = module->launch_recording_memory(
          request.grid, request.block, request.dynamic_shared_bytes, pointers.data(), options);
      if (!recorded) {
        reply.error = recorded.message();
        return reply;
      }
      MemoryReply memory;
      const std::vector<memory::WarpRequest> requests =
          memory::group_warp_requests(recorded->records);
      memory.table = memory::tabulate_by_line(requests, recorded->site_lines,
                                              recorded->recorded_blocks, recorded->grid_blocks);
      memory.row_argument = row_arguments(*recorded, memory.table, arrays);
      memory.row_requests = row_requests(requests, recorded->site_lines, memory.table);
      std::vector<memory::ArrayExtent> extents;
      for (const auto& [index, range] : arrays) {
        extents.push_back({range.address, range.bytes,
                           request.arguments[static_cast<std::size_t>(index)].element_bytes});
      }
      const std::vector<memory::LoadBudget> loads =
          memory::load_budgets(recorded->records, extents);
      for (std::size_t a = 0; a < arrays.size(); ++a) {
        const WireArgument& wire = request.arguments[static_cast<std::size_t>(arrays[a].first)];
        memory.arrays.push_back({arrays[a].first, extents[a].address, extents[a].bytes,
                                 extents[a].element_bytes, wire.rows, wire.cols, loads[a]});
      }
      memory.lines_note = recorded->lines_note;
      memory.dropped_accesses = recorded->dropped_accesses;
      reply.memory = std::move(memory);
      for (const auto& [data, a] : outputs) {
        std::memcpy(region + a->offset, data,
                    (static_cast<std::size_t>(a->rows * a->cols) + a->guard_elements) * 4);
      }
      reply.ok = true;
      return reply;
    }
    if (Status status = launch(); !status) {
      reply.error = status.message();
      return reply;
    }
    if (request.traced) reply.finding = module->last_shared_memory_race();
    // The outputs of this one launch are what the app judges: copied out before any timed repeat
    // runs again (a sum through atomics would keep adding).
    for (const auto& [data, a] : outputs) {
      std::memcpy(region + a->offset, data,
                  (static_cast<std::size_t>(a->rows * a->cols) + a->guard_elements) * 4);
    }
    for (const auto& [trace, a] : traces) {
      std::memcpy(region + a->trace_offset, trace,
                  static_cast<std::size_t>(a->rows * a->cols) * 16);
    }
    if (fault != nullptr) std::memcpy(region + request.fault_offset, fault, fault_bytes);
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
  std::optional<EmulatedLearnerModule> recording_;
};

}  // namespace

std::unique_ptr<WorkerBackend> make_emulator_worker_backend() {
  return std::make_unique<EmulatorWorkerBackend>();
}

}  // namespace tl::lab
