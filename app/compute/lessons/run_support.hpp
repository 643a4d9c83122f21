#pragma once
// Small pieces the lesson runners share: cancellation, host-side timing, poisoned outputs and the
// emulator's work budget.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include "compute/device.hpp"
#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/stats.hpp"
#include "core/work_watch.hpp"

namespace tl::compute {

[[nodiscard]] inline bool cancel_requested(const std::atomic<bool>* flag) {
  return flag != nullptr && flag->load();
}
[[nodiscard]] inline Error cancelled_error() {
  return {ErrorKind::kCancelled, "cancelled"};
}

// `warmup` untimed runs, then `repeats` runs each timed on the steady clock. A Cancel of the work
// watching this thread (core/work_watch.hpp: the window's timed runs and sweeps) ends it between
// two runs, so a CPU reference over 2^25 elements answers as quickly as an emulated grid; the
// caller finds the flag set and drops what was timed.
template <typename Work>
TimingStats time_on_host(Work&& work, int warmup, int repeats) {
  const WorkWatch* const watch = current_work_watch();
  auto cancelled = [watch] { return watch != nullptr && watch->cancelled(); };
  for (int i = 0; i < warmup && !cancelled(); ++i) work();
  std::vector<double> samples;
  for (int i = 0; i < repeats && !cancelled(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const auto end = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return summarize_timings(samples);
}

// Outputs start as NaN so that an element no thread wrote fails the check instead of passing by
// luck.
[[nodiscard]] inline std::vector<float> poisoned_floats(std::uint64_t n) {
  return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN());
}

// The emulator runs every thread on the CPU, so a launch of billions of threads that a GPU finishes
// in milliseconds would hold a laptop for minutes. Timed launches (a plain call per thread) may
// have up to 2^28 threads, traced ones (each block's threads as fibers, for the block records'
// barrier) 2^24. On a GPU, and for configurations CUDA refuses anyway (so that its own error
// shows), this always passes.
inline constexpr std::uint64_t kEmulatorMaxThreads = std::uint64_t{1} << 28;
inline constexpr std::uint64_t kEmulatorMaxTracedThreads = std::uint64_t{1} << 24;
Status check_emulator_budget(const Device& device, const LaunchConfig& config, bool traced);

}  // namespace tl::compute
