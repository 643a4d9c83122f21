// `threadlab bench --suite perf`: issue #6's targets, each a ratio measured in the same run.
//
// - each lesson's own targets (its module's benchmark hook): vector add (N = 2^28), the float4
//   kernel, against the device-to-device copy, at least 0.98 (issue #20); every rung of the
//   matrix-multiply ladder at 4096³ against cuBLAS SGEMM, the best (pipelined) at least 0.90 (issue
//   #20); the dense layer fused against the unfused chain at batch 1 (at least 1.5x faster) and
//   against cuBLAS + the fused epilogue at batch 4096 (at most 1.15x slower);
// - the multi-threaded CPU vector add against the host's memcpy, both over every hardware thread:
//   at least 0.70;
// - the interop path against the copy path for one traced frame: at least 20x faster;
// - a hook for the UI frame time at 16M elements, measured by the UI's own benchmark.

#include "command_bench_perf.hpp"

#include <algorithm>
#include <string_view>

#include "core/format.hpp"
#include "host_bandwidth.hpp"
#include "ratio_suite.hpp"
#include "ratio_table.hpp"

namespace tl::cli {
namespace {

struct PerfSizes {
  std::uint64_t host_n;
  std::uint64_t ui_frame_n;  // elements traced and drawn per UI frame
};
// The sizes on a GPU; on the emulator small enough for seconds (the ratios then say little
// about a GPU, and the table's header names the device).
constexpr PerfSizes kGpuSizes{1ull << 26, 1ull << 24};
constexpr PerfSizes kEmulatorSizes{1ull << 24, 1ull << 16};

constexpr double kCpuVectorAddTarget = 0.70;
constexpr double kInteropTarget = 20.0;

Status cpu_ratio(const PerfSizes& sizes, int repeats, std::vector<RatioRow>& rows) {
  auto host = measure_host_bandwidth(sizes.host_n, std::max(repeats, 5));
  if (!host) return host.error();
  rows.push_back(with_target(
      rate_ratio("CPU vector add, " + std::to_string(host->threads) +
                     " threads, N = " + format_power_of_two(sizes.host_n),
                 host->vector_add_bytes_per_second / 1e9, "GB/s",
                 "host memcpy, same threads, same run", host->memcpy_bytes_per_second / 1e9),
      kCpuVectorAddTarget));
  return Status::ok();
}

// The whole UI frame, measured by the UI's own benchmark (headless EGL): the median over the frames
// against 16.7 ms. Absent, with the reason, where it cannot run (no EGL, no UI in this build).
RatioRow ui_frame_ratio(const UiFrameMeasure& measure, const std::string& backend,
                        std::uint64_t elements, std::ostream& err) {
  const std::string what = "UI frame: traced launch over " + format_power_of_two(elements) +
                           " elements + whole UI redrawn, median";
  const std::string against = "one frame at 60 fps (16.7 ms)";
  RatioRow row = with_target(time_ratio(what, 0, against, 1000.0 / 60.0), 1.0);
  if (!measure) {
    row.absent = "this build has no UI to measure";
    return row;
  }
  UiFrameRequest request;
  request.backend = backend;
  request.elements = elements;
  request.progress = [&err](const std::string& line) { err << "bench: " << line << std::endl; };
  auto times = measure(request);
  if (!times) {
    row.absent = times.message();
    return row;
  }
  auto median_of = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
  };
  // The traced launch's share says where a slow frame's time goes: the launch or the drawing.
  const double median = median_of(times->milliseconds);
  const double traced = median_of(times->traced_milliseconds);
  row = with_target(time_ratio(what + " of " + std::to_string(times->milliseconds.size()) + " (" +
                                   times->backend + "; the traced launch " +
                                   format_milliseconds(traced) + " of it)",
                               median, against, 1000.0 / 60.0),
                    1.0);
  return row;
}

}  // namespace

int command_bench_perf(const BenchOptions& options, const UiFrameMeasure& measure_frames,
                       std::ostream& out, std::ostream& err) {
  return run_ratio_suite(
      options, out, err,
      [&](compute::Device& device, const DeviceCeilings& ceilings,
          std::vector<RatioRow>& rows) -> Status {
        const PerfSizes& sizes = device.is_gpu() ? kGpuSizes : kEmulatorSizes;
        TL_RETURN_IF_ERROR(
            lesson_benchmarks(compute::BenchSuite::kPerf, device, ceilings, options.repeats, rows));
        TL_RETURN_IF_ERROR(cpu_ratio(sizes, options.repeats, rows));
        rows.push_back(with_target(trace_delivery_ratio(device, std::max(options.repeats, 5)),
                                   kInteropTarget));
        // The UI's frame runs with its own device and GL context: this suite's work is done by
        // now.
        rows.push_back(
            ui_frame_ratio(measure_frames, options.launch.backend, sizes.ui_frame_n, err));
        return Status::ok();
      });
}

int command_bench_ui(const BenchOptions& options, const UiFrameMeasure& measure_frames,
                     std::ostream& out, std::ostream& err) {
  return run_ratio_suite(
      options, out, err,
      [&](compute::Device& device, const DeviceCeilings&, std::vector<RatioRow>& rows) -> Status {
        const PerfSizes& sizes = device.is_gpu() ? kGpuSizes : kEmulatorSizes;
        rows.push_back(with_target(trace_delivery_ratio(device, std::max(options.repeats, 5)),
                                   kInteropTarget));
        rows.push_back(
            ui_frame_ratio(measure_frames, options.launch.backend, sizes.ui_frame_n, err));
        return Status::ok();
      });
}

}  // namespace tl::cli
