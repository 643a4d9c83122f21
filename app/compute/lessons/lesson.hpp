#pragma once
// What every lesson offers the UI, the command line and the sweeps, so that they are written once:
// parameters, a timed run (a table of timings), a traced run (who computed each element) and the
// sizes a sweep visits. Each lesson implements it over its own kernels and CPU references.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/grid_diagram.hpp"
#include "core/lessons/catalog.hpp"
#include "core/lessons/lesson_params.hpp"
#include "core/stats.hpp"
#include "core/thread_coverage_note.hpp"
#include "core/timing/timing_key.hpp"
#include "core/trace.hpp"
#include "core/watchdog.hpp"

namespace tl::compute {

struct TimingRow {
  // What the row measures (core/timing/timing_key.hpp): first, so that no row is built without it.
  TimingKey key;
  std::string name;  // for people: "GPU kernel", "copy A, B to device", "CPU, 1 thread", ...
  TimingStats stats;
  double bytes = 0;     // moved per run, for GB/s (0: not meaningful)
  double flops = 0;     // per run, for GFLOP/s (0: not meaningful)
  bool plotted = true;  // a series of the sweep plot
  // Work done on the GPU itself (a kernel, cuBLAS), not a copy over PCIe or the CPU: the rows
  // compared with the device's ceilings.
  bool on_device = false;
};

struct LessonCheck {
  bool passed = false;
  std::string description;
};

// A document a lesson's result can be saved as (`threadlab run --export PREFIX` writes each to
// PREFIX.<suffix>): the moving-data lesson's timeline as CSV and JSON.
struct LessonExport {
  std::string suffix;  // "timeline.csv"
  std::string contents;
};

// A lesson's own result beyond the timing rows (the dense layer's picture of its weights and
// outputs): the lesson's views draw it, everything generic carries it without looking inside.
struct LessonAttachment {
  virtual ~LessonAttachment() = default;
  [[nodiscard]] virtual std::vector<LessonExport> exports() const { return {}; }
};

struct LessonReport {
  bool on_gpu = false;
  std::vector<TimingRow> rows;
  std::optional<LessonCheck> check;
  std::vector<std::string> notes;                      // e.g. why a CPU reference was skipped
  std::shared_ptr<const LessonAttachment> attachment;  // none for most lessons

  // The row with `key`, or null. Code picks rows by key, never by display name.
  [[nodiscard]] const TimingRow* find(const TimingKey& key) const;
};

struct TracedLaunch {
  DataShape shape;      // the traced data as rows × cols (1D data: one row)
  LaunchConfig config;  // the configuration that ran
  std::optional<LessonCheck> check;
  std::vector<BlockRecord> blocks;  // per block, where the lesson records them
};

// One step of a sweep over threads per block: the block, and the parameters that launch it.
struct BlockStep {
  Dim3 block;
  lessons::ParamValues values;
};

// A preset the UI offers as a button, e.g. the article's <<<1, N>>>.
struct LessonPreset {
  std::string label;
  std::string help;
  lessons::ParamValues values;
};

class Lesson {
 public:
  virtual ~Lesson() = default;

  [[nodiscard]] virtual const lessons::LessonInfo& info() const = 0;
  [[nodiscard]] virtual std::span<const lessons::ParamSpec> params() const = 0;
  // Merges `values` into the current parameters and validates them all; on error nothing changes.
  virtual Status configure(const lessons::ParamValues& values) = 0;
  // The current parameters, every one of them, as text.
  [[nodiscard]] virtual lessons::ParamValues values() const = 0;

  // The configuration the kernels are launched with (a grid of "auto" resolved) and the data.
  [[nodiscard]] virtual LaunchConfig launch_config() const = 0;
  [[nodiscard]] virtual DataShape data_shape() const = 0;
  [[nodiscard]] virtual std::vector<LessonPreset> presets() const { return {}; }
  // Values that replace the defaults when the lesson opens on the CPU emulator, where the GPU
  // defaults would take too long (empty: the defaults suit both).
  [[nodiscard]] virtual lessons::ParamValues emulator_defaults() const { return {}; }
  // The device this lesson's launches go to, told when the lesson is opened and whenever the
  // device changes: a lesson whose launch depends on it (a persistent kernel's one block per
  // multiprocessor) keeps what it needs, so that launch_config() shows what will run. Most lessons
  // ignore it.
  virtual void use_device(const Device& /*device*/) const {}
  // Parameters that this device cannot honour (a second GPU, a library that is not installed),
  // each with its reason in one sentence: the launch panel greys them and says why. A run given
  // one anyway goes on without it and notes the reason. Most lessons have none.
  [[nodiscard]] virtual std::map<std::string, std::string> unavailable_params(
      const Device& /*device*/) const {
    return {};
  }
  // How the threads map onto the elements, for the grid diagram's idle threads; none where threads
  // cooperate on elements.
  [[nodiscard]] virtual std::optional<ThreadCoverage> thread_coverage() const {
    return std::nullopt;
  }

  // How many elements one thread computes with the current settings: 1, up to k (register
  // tiling), or kAnyElementsPerThread (a grid-stride loop); the launch panel's note follows it.
  [[nodiscard]] virtual std::uint32_t elements_per_thread() const { return 1; }

  // The kernel the current settings launch, as kernels/kernel_inspector.hpp names it, for the
  // occupancy view; none where the work runs in a library (cuBLAS).
  [[nodiscard]] virtual std::optional<std::string> occupancy_kernel() const = 0;

  // The longest single kernel the current settings launch, predicted before launching: its name,
  // flops, bytes and the pessimistic efficiency assumed (core/watchdog.hpp). None where no kernel
  // can come near a display's watchdog.
  struct KernelWork {
    std::string kernel;
    double flops = 0;
    double bytes = 0;
    KernelEfficiency efficiency;
  };
  [[nodiscard]] virtual std::optional<KernelWork> longest_kernel() const { return std::nullopt; }
  // kTooSlow where `device` has a display watchdog that the longest kernel could reach.
  [[nodiscard]] Status check_watchdog(const Device& device) const;

  // Traced launches may keep their inputs on the device for the next launch of the same size (the
  // UI relaunches on every change of view, and every frame of a live view). Off by default: the
  // owner that turns it on must call release_device_data() before the device is reset, replaced
  // or destroyed, and before work that needs the memory.
  void set_keep_traced_inputs(bool keep) {
    keep_traced_inputs_ = keep;
    if (!keep) release_device_data();
  }
  [[nodiscard]] bool keep_traced_inputs() const { return keep_traced_inputs_; }
  virtual void release_device_data() {}

  // Timed run: the untraced kernels (warm-up, repeats), the copies and the CPU references.
  virtual Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) = 0;
  // One traced launch writing its records into `sink`.
  virtual Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) = 0;

  // Sweeps and `threadlab bench` vary one size; these give the parameters for a size and the sizes
  // a sweep visits on `device`.
  [[nodiscard]] virtual std::string size_label() const = 0;  // "elements N"
  [[nodiscard]] virtual lessons::ParamValues values_for_size(std::uint64_t size) const = 0;
  [[nodiscard]] virtual std::vector<std::uint64_t> sweep_sizes(const Device& device) const = 0;
  // The sweep over threads per block at the current size (core/sweep/block_sweep.hpp), within what
  // the lesson's kernels accept: the tiled matrix multiply, whose block is its tile, visits its
  // three tiles.
  [[nodiscard]] virtual std::vector<BlockStep> block_sweep() const = 0;
  // The two plotted rows whose crossing the plot marks (baseline, challenger), if any.
  [[nodiscard]] virtual std::optional<std::pair<TimingKey, TimingKey>> crossover() const {
    return std::nullopt;
  }

  // How timed runs measure: timed repeats after one warm-up, and whether the CPU references run.
  void set_repeats(int repeats) { repeats_ = repeats < 1 ? 1 : repeats; }
  void set_time_cpu(bool time_cpu) { time_cpu_ = time_cpu; }
  [[nodiscard]] int repeats() const { return repeats_; }
  [[nodiscard]] bool time_cpu() const { return time_cpu_; }

 private:
  bool keep_traced_inputs_ = false;
  int repeats_ = 5;
  bool time_cpu_ = true;
};

}  // namespace tl::compute
