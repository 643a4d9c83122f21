#pragma once
// Runs lesson 3 on a device: C = A + B on a rows × cols matrix. A timed run measures BOTH index
// mappings on the same data, so the price of the strided one is seen side by side; a traced run
// records who computed each element under the selected mapping.

#include <atomic>
#include <cstdint>
#include <optional>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/kernel_counters.hpp"
#include "core/stats.hpp"
#include "lessons/03_2d_blocks/matrix_add.hpp"

namespace tl::compute {

struct MatrixAddRequest {
  lessons::MatrixAddParams params;
  bool check = true;
  bool time_cpu = true;  // also time the single-threaded CPU loop
  int warmup = 1;        // untimed runs before the timed ones
  int repeats = 5;
  std::uint32_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  // checked between measurements
};

struct MatrixMappingTiming {
  lessons::MatrixMapping mapping = lessons::MatrixMapping::kXToCol;
  LaunchConfig config;  // what this mapping ran with
  TimingStats kernel;
  double gigabytes_per_second = 0;     // A and B read, C written, over the median time
  std::uint32_t sectors_per_warp = 0;  // lessons::sectors_per_warp_access: 4 is ideal
  std::optional<lessons::ElementCheck> check;
};

struct MatrixAddReport {
  bool on_gpu = false;
  lessons::MatrixMapping selected = lessons::MatrixMapping::kXToCol;
  MatrixMappingTiming x_to_col;
  MatrixMappingTiming x_to_row;
  TimingStats host_to_device;  // copying A and B to the device
  TimingStats device_to_host;  // copying C back
  TimingStats cpu_single;      // empty when not requested
  TimingStats cpu_multi;       // the same loop on every hardware thread
  unsigned cpu_threads = 0;    // how many it used

  [[nodiscard]] const MatrixMappingTiming& timing(lessons::MatrixMapping mapping) const {
    return mapping == lessons::MatrixMapping::kXToCol ? x_to_col : x_to_row;
  }
  // x_to_row's median time over x_to_col's: what the strided mapping costs (0 when unknown).
  [[nodiscard]] double strided_slowdown() const {
    return x_to_col.kernel.median_ms > 0 ? x_to_row.kernel.median_ms / x_to_col.kernel.median_ms
                                         : 0.0;
  }
};

// The selected mapping (params.mapping) runs with params.config exactly; the other mapping with
// the same block and its own covering grid (lessons::matrix_covering_config), so that it computes
// every element. Launch errors come back as errors carrying CUDA's own message.
Result<MatrixAddReport> run_matrix_add(Device& device, const MatrixAddRequest& request);

// Hardware counters for both mappings (x → column first) at params' size and block, one launch
// each apart from any timing.
struct MatrixCountedKernel {
  lessons::MatrixMapping mapping = lessons::MatrixMapping::kXToCol;
  KernelCounters counters;
};
Result<std::vector<MatrixCountedKernel>> count_matrix_add(Device& device,
                                                          const lessons::MatrixAddParams& params,
                                                          std::uint32_t seed = 1);

// One traced launch of params.mapping with params.config, writing rows·cols element records
// (element = row * cols + col) into `sink`; the same inputs as run_matrix_add with the same seed.
// Returns the check of the traced kernel's output.
Result<lessons::ElementCheck> trace_matrix_add(Device& device,
                                               const lessons::MatrixAddParams& params,
                                               TraceSink& sink, std::uint32_t seed = 1);

}  // namespace tl::compute
