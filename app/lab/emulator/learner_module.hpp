#pragma once
// A learner's kernel built by compile_learner_kernel, loaded (dlopen) and launched on the grid
// executor like any emulated kernel: blocks in parallel on worker threads, a block's threads as
// fibers when the kernel waits for other threads, so barriers, warp shuffles and votes work.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/dim3.hpp"
#include "core/memory/warp_requests.hpp"
#include "core/result.hpp"

namespace tl::lab {

class EmulatedLearnerModule {
 public:
  // A thread-local variable of the object (a static __shared__ variable is one), which the race
  // check names.
  struct ThreadLocalSymbol {
    std::uint64_t offset;  // in the object's thread-local block
    std::uint64_t bytes;
    std::string name;  // demangled, e.g. "k(int*)::tile"
  };

  // The learner's static __shared__ variables in the object at `path` (thread-local variables
  // outside ThreadLab's own namespace), in bytes, and the largest of them: what a GPU's compiler
  // would count against its limit of 48 KiB of static shared memory per block. Read from the
  // file, before it is loaded: a huge one must be refused, not allocated per thread.
  struct StaticShared {
    std::uint64_t bytes = 0;
    std::string largest;  // its name, e.g. "k(float*)::big"
    std::uint64_t largest_bytes = 0;
  };
  [[nodiscard]] static StaticShared static_shared(const std::filesystem::path& path);

  // Loads the shared object and checks that it speaks this ThreadLab's executor interface.
  [[nodiscard]] static Result<EmulatedLearnerModule> load(const std::filesystem::path& path);

  EmulatedLearnerModule(EmulatedLearnerModule&& other) noexcept;
  EmulatedLearnerModule& operator=(EmulatedLearnerModule&& other) noexcept;
  EmulatedLearnerModule(const EmulatedLearnerModule&) = delete;
  EmulatedLearnerModule& operator=(const EmulatedLearnerModule&) = delete;
  ~EmulatedLearnerModule();

  // Runs the kernel over the grid. args[i] points to the value of the kernel's i-th parameter, as
  // for cuLaunchKernel; there must be parameter_count() of them. Errors (a configuration a GPU
  // refuses, a divergent barrier, an undefined warp operation) come back as values; a fault in
  // the learner's code (a wild pointer) crashes the process, which is why this runs in the worker.
  // `workers` 0: one per hardware thread.
  [[nodiscard]] Status launch(const Dim3& grid, const Dim3& block, std::size_t dynamic_shared_bytes,
                              void** args, unsigned workers = 0) const;

  [[nodiscard]] std::uint32_t parameter_count() const;
  // Whether launches run a block's threads as fibers (the source waits for other threads).
  [[nodiscard]] bool uses_fibers() const;
  // For a build with LearnerCompileOptions::check_shared_races: the first shared-memory race the
  // last launch found (block, both threads, the word), empty if none. A race does not fail the
  // launch: the kernel ran to its end, and the caller decides what the finding means.
  [[nodiscard]] const std::string& last_shared_memory_race() const;

  // Memory recording, for a build with LearnerCompileOptions::record_memory.
  struct MemoryRange {
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
  };
  struct MemoryRecordingOptions {
    // Linear block indices (x + gridDim.x * (y + gridDim.y * z)) whose every warp is recorded;
    // empty: memory::blocks_to_record(grid blocks, 4).
    std::vector<std::uint64_t> blocks;
    // The kernel's arrays: an access outside them and outside shared memory (a parameter read
    // from the argument array, the trace's records) is not the kernel's data and is dropped.
    std::vector<MemoryRange> global;
  };
  struct MemoryRecording {
    // Each lane's accesses in its program order; `site` indexes the vectors below. Shared-memory
    // addresses are offsets: static __shared__ variables at their offset in the object's
    // thread-local block, the dynamic shared memory after them from the next 128-byte boundary.
    std::vector<memory::LaneRecord> records;
    std::vector<std::uint64_t>
        site_offsets;             // return address of the access's callback, in the object
    std::vector<int> site_lines;  // kernel.cu's line of each site, 0 where unknown
    std::string lines_note;       // why the lines are unknown, if they are
    std::uint64_t recorded_blocks = 0;
    std::uint64_t grid_blocks = 0;
    std::uint64_t dropped_accesses = 0;  // outside the arrays and shared memory
  };
  // Runs the kernel as launch() does, recording the chosen blocks' accesses.
  [[nodiscard]] Result<MemoryRecording> launch_recording_memory(
      const Dim3& grid, const Dim3& block, std::size_t dynamic_shared_bytes, void** args,
      const MemoryRecordingOptions& recording, unsigned workers = 0) const;
  [[nodiscard]] bool records_memory() const { return records_memory_; }

 private:
  EmulatedLearnerModule() = default;
  void* handle_ = nullptr;
  void* run_thread_ = nullptr;  // ThreadlabLearnerRunThread
  std::uint32_t parameter_count_ = 0;
  bool uses_fibers_ = false;
  bool records_memory_ = false;
  std::filesystem::path path_;
  std::vector<ThreadLocalSymbol> thread_local_symbols_;
  mutable std::string last_race_;
};

}  // namespace tl::lab
