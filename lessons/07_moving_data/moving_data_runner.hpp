#pragma once
// Runs lesson 7 on a device: the copy sweep (pageable and pinned, both directions), many small
// copies against one batched copy, the chunked pipeline over 1, 2, 4 and 8 streams with its
// timeline, the dense layer fed batch by batch, and unified memory with and without prefetching.
// On a GPU the timeline comes from CUDA events (cuda/moving_data_cuda.cpp); on the emulator,
// which has no streams, from a model over the times it measured, and says so.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "lessons/07_moving_data/moving_data.hpp"

namespace tl::compute {

struct CopySeries {
  bool to_device = true;
  bool pinned = false;
  std::vector<lessons::CopyPoint> points;
  std::optional<lessons::CopyKnee> knee;
  [[nodiscard]] std::string variant() const;  // "to-device-pinned", ...
};

struct PipelineRun {
  std::uint32_t streams = 1;
  lessons::HostMemory memory = lessons::HostMemory::kPinned;
  lessons::Schedule schedule = lessons::Schedule::kDepthFirst;
  // True on the emulator: the timeline is the model's schedule over measured stage times, not a
  // measurement of overlapping work.
  bool modelled = false;
  std::vector<lessons::TimelineOp> ops;  // of the run whose total was the median
  lessons::PipelineSummary summary;
  TimingStats total;  // every repeat's first start to last end
};

struct ManagedRun {
  bool available = false;
  std::string absent;  // why not, where not available
  std::uint64_t bytes = 0;
  TimingStats first_touch;  // the kernel over managed memory the host wrote last: pages fault over
  TimingStats prefetched;   // the same after cudaMemPrefetchAsync to the device
  bool concurrent_managed_access = false;
  std::string faults;  // what can be said about page faults on this device
};

struct BatchSweep {
  std::uint64_t in = 0, out = 0;  // the dense layer's shape
  std::uint64_t samples = 0;      // per measurement
  bool pinned = false;            // whether the batches came from pinned memory
  std::vector<lessons::BatchPoint> points;
  std::optional<std::uint64_t> crossover;
  unsigned cpu_threads = 0;
};

struct MovingDataReport {
  bool on_gpu = false;
  lessons::MovingDataParams params;  // with the rounds the run used (auto resolved)
  lessons::LinkCeiling link;
  int copy_engines = 0;  // asyncEngineCount; 0 on the emulator
  // CUDA_DEVICE_MAX_CONNECTIONS as the runtime reads it (the default, 8, when unset): the hardware
  // queues the streams share on the GPU, and what the emulator's model assumes.
  std::uint32_t connections = lessons::kDefaultConnections;
  std::vector<CopySeries> copies;
  std::string pinned_unavailable;  // why the pinned series are missing, where they are
  // The same bytes as many small copies and as one.
  std::uint64_t small_copy_bytes = 0, small_copies = 0;
  TimingStats many_small, one_batched;
  // The selected memory and schedule at each measured stream count...
  std::vector<PipelineRun> pipelines;
  // ...and pageable at the selected count, issued depth-first whatever the schedule: it shows what
  // pinned memory changes, not what the schedule does.
  std::optional<PipelineRun> pageable_pipeline;
  BatchSweep batches;
  ManagedRun managed;
  lessons::MovingDataCheck check;
  std::vector<std::string> notes;

  // The run of the selected memory and stream count (the one drawn), or null.
  [[nodiscard]] const PipelineRun* selected_pipeline() const;
  [[nodiscard]] const CopySeries* series(bool to_device, bool pinned) const;
};

struct MovingDataRequest {
  lessons::MovingDataParams params;
  bool time_cpu = true;
  int repeats = 5;
  std::uint32_t seed = 1;
  // The largest copy of the sweep (capped by memory); the emulator's default keeps a run short.
  std::uint64_t copy_sweep_top = lessons::kCopySweepLargest;
  // The dense layer's shape and batches for the mini-batch sweep.
  std::uint64_t dense_in = 1024, dense_out = 1024;
  std::vector<std::uint64_t> batch_sizes = {1, 4, 16, 64, 256, 1024, 4096};
  const std::atomic<bool>* cancel = nullptr;
};

Result<MovingDataReport> run_moving_data(Device& device, const MovingDataRequest& request);

// One traced launch of the pipeline's kernel over all the data at once (which thread computes
// which element does not depend on the chunks); returns the check of the output.
Result<lessons::MovingDataCheck> trace_moving_data(Device& device,
                                                   const lessons::MovingDataParams& params,
                                                   TraceSink& sink, std::uint32_t seed = 1);

// The kernel's launch over one chunk of `count` elements.
[[nodiscard]] LaunchConfig chunk_config(std::uint64_t count, std::uint32_t block);

}  // namespace tl::compute
