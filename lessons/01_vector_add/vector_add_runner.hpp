#pragma once
// Runs lesson 1 on a device: inputs, copies, the timed kernel, the check against the CPU, the
// traced launch. The UI, the CLI and the tests all go through here.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "lessons/01_vector_add/vector_add.hpp"

namespace tl::compute {

struct VectorAddRequest {
  std::uint64_t n = 1 << 20;
  LaunchConfig config = lessons::covering_config(1 << 20, 256);
  bool check = true;
  bool time_cpu = true;  // also time the single- and multi-threaded CPU references
  // Also time the copies from and to pinned (page-locked) host memory, the second end-to-end
  // series.
  bool time_pinned = true;
  // Also time (and check) the vectorized kernel, vector_add_vectorized, on the same inputs: the
  // one that reaches the device copy's bandwidth.
  bool time_vectorized = true;
  int warmup = 1;  // untimed runs before the timed ones (first-launch and clock ramp costs)
  int repeats = 5;
  std::uint32_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  // checked between measurements
};

struct VectorAddReport {
  bool on_gpu = false;
  std::uint64_t n = 0;
  TimingStats kernel;             // the untraced kernel alone
  TimingStats kernel_vectorized;  // vector_add_vectorized; empty when not requested
  LaunchConfig vectorized_config;
  TimingStats host_to_device;  // A and B
  TimingStats device_to_host;  // C
  // The same copies from and to pinned host memory; empty when not requested or when pinned
  // memory could not be had (then `pinned_unavailable` says why).
  TimingStats host_to_device_pinned;
  TimingStats device_to_host_pinned;
  std::string pinned_unavailable;
  TimingStats cpu_single;  // empty when not requested
  TimingStats cpu_multi;
  unsigned cpu_threads = 0;
  std::optional<lessons::CheckResult> check;
  std::optional<lessons::CheckResult> check_vectorized;

  // Copy A and B in, run, copy C out: what a program actually waits for.
  [[nodiscard]] double end_to_end_ms() const {
    return host_to_device.median_ms + kernel.median_ms + device_to_host.median_ms;
  }
  [[nodiscard]] bool has_pinned() const {
    return !host_to_device_pinned.empty() && !device_to_host_pinned.empty();
  }
};

// Allocates, uploads, launches and times. Launch errors (invalid configuration, out of memory,
// faults) come back as errors carrying CUDA's own message; the device stays usable unless the error
// is sticky.
Result<VectorAddReport> run_vector_add(Device& device, const VectorAddRequest& request);

// What a traced relaunch of the same vector add can reuse: the app relaunches on every change of
// colour or view, and a frame that shows a live launch relaunches every frame. The inputs stay on
// the host and the device; each configuration's check is kept, because the same inputs under the
// same configuration give the same result (only who computed what, the trace, changes). Holds
// device memory: release() before the device is reset or replaced.
class TracedVectorAddInputs {
 public:
  TracedVectorAddInputs() = default;
  TracedVectorAddInputs(const TracedVectorAddInputs&) = delete;
  TracedVectorAddInputs& operator=(const TracedVectorAddInputs&) = delete;
  ~TracedVectorAddInputs() { release(); }
  void release();
  // How many times inputs were generated and uploaded (tests: a relaunch must not).
  [[nodiscard]] int uploads() const { return uploads_; }

 private:
  friend Result<lessons::CheckResult> trace_vector_add(Device&, std::uint64_t, const LaunchConfig&,
                                                       TraceSink&, std::uint32_t,
                                                       TracedVectorAddInputs*);
  Device* device_ = nullptr;
  std::uint64_t n_ = 0;
  std::uint32_t seed_ = 0;
  std::vector<float> a_, b_;
  DeviceArray<float> a_device_, b_device_, c_device_;
  std::optional<LaunchConfig> checked_config_;
  lessons::CheckResult checked_;
  int uploads_ = 0;
};

// One traced launch writing its records into `sink`; the same inputs as run_vector_add with the
// same seed. Returns the check of the traced kernel's output. With `reuse`, inputs and checks are
// kept there for the next launch of the same size.
Result<lessons::CheckResult> trace_vector_add(Device& device, std::uint64_t n,
                                              const LaunchConfig& config, TraceSink& sink,
                                              std::uint32_t seed = 1,
                                              TracedVectorAddInputs* reuse = nullptr);

}  // namespace tl::compute
