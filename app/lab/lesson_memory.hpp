#pragma once
// The memory accesses of a lesson's own kernel, recorded on the emulator, and the per-line table
// `threadlab run --memory-table` prints (issue 33).
//
// Why a run-time build, the Lab's: the lessons' kernels compiled into the app cannot be recorded
// as they are (their accesses are plain loads and stores through raw pointers, which nothing
// sees), and an instrumented second copy linked into the app would share the app's inline
// functions (the shim's threadIdx, the executor's waits), which the linker merges into one, so the
// instrumentation would leak into the normal kernels or the copy would run the app's uninstrumented
// code. Kept apart in a shared object of its own, it would need the build to compile every kernel
// set a second time with -fsanitize=thread (which the sanitizer tree's own -fsanitize=address
// refuses), and the app to find that file at run time. The Lab already does all of this at run
// time: the kernel's .cuh is embedded in the app for the lessons' text, so it is handed, unchanged
// and on its own line numbers, to the Lab's emulator compiler with memory recording
// (lab/emulator/learner_compiler.hpp: the system c++, cached by hash) and run by its module, loaded
// with RTLD_LOCAL so its symbols stay apart. The app's kernels stay untouched and at full speed;
// the cost is a compile of a second or two the first time a kernel is recorded. Unlike a learner's
// kernel, a lesson's is ThreadLab's own code, so it runs in the calling process, not the worker.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_counters.hpp"
#include "core/launch_config.hpp"
#include "core/memory/memory_experiment.hpp"
#include "core/memory/memory_model.hpp"
#include "core/result.hpp"

namespace tl::lab {

struct LessonKernelMemory {
  std::string label;        // the experiment's
  std::string counted_key;  // the experiment's: its row among the lesson's counted kernels
  std::string kernel;       // "matmul_tiled<16>"
  std::string source;       // the .cuh whose lines the table names
  LaunchConfig config;
  memory::MemoryTable table;
  std::vector<std::string> line_texts;  // per table row: its source line, trimmed
  std::uint64_t dropped_accesses = 0;   // outside the kernel's arrays and shared memory
  std::string note;                     // why lines are unknown, if they are
  // What the table was made of, for a view that draws one request's lanes and for tests that
  // tell apart two arrays read on one line: the recorded requests, each site's line, and where
  // each array parameter lay.
  struct Array {
    std::string name;
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
  };
  std::vector<memory::WarpRequest> requests;
  std::vector<int> site_lines;
  std::vector<Array> arrays;
  // The array `address` falls in, or null (shared memory has no array here).
  [[nodiscard]] const Array* array_at(std::uint64_t address) const;
};

// Builds (or takes from the cache in `cache_dir`; empty: the Lab's) the experiment's kernel with
// memory recording, launches it on the emulator over zeroed arrays and tabulates the recorded
// blocks' requests per line of the kernel's .cuh. Only the recorded blocks run (the first, the
// last and two between): their accesses do not depend on the others'.
[[nodiscard]] Result<LessonKernelMemory> record_lesson_kernel(
    const memory::MemoryExperiment& experiment, const std::string& cache_dir = {});

// The model's figures for the whole grid, in the form a GPU's counters give them (core/
// kernel_counters.hpp): the recorded blocks' global requests and sectors and shared-memory bank
// conflicts, scaled by the table's grid_scale() where only some blocks were recorded.
[[nodiscard]] MemoryInstructionCounters model_grid_counters(const memory::MemoryTable& table);

// The model's figures beside a GPU's counters of the same kernel, in one line for people:
// "x → row (strided) on NVIDIA H200: global loads 32 sectors per request measured, 32 in the
// model (65,536 and 65,536 requests); stores ...; shared-memory bank conflicts ...". Global
// sectors and requests must agree (docs/PERFORMANCE.md); the hardware's bank-conflict counter
// also counts the banks' cycles lost to other traffic, which the line says where it reads more.
[[nodiscard]] std::string memory_beside_counters(std::string_view label,
                                                 const MemoryInstructionCounters& model,
                                                 const MemoryInstructionCounters& measured,
                                                 std::string_view device);

enum class MemoryReportFormat { kTable, kCsv, kJson };
[[nodiscard]] Result<MemoryReportFormat> parse_memory_report_format(std::string_view text);

// The per-line table of each kernel: line, source text, load/store, global/shared, requests,
// sectors, sectors per request, ideal per request, wavefronts and bank conflicts, with the recorded
// blocks and how the grid's totals are extrapolated from them.
[[nodiscard]] std::string memory_report(std::span<const LessonKernelMemory> kernels,
                                        MemoryReportFormat format);

}  // namespace tl::lab
