// `threadlab bench --suite perf`: issue #6's targets, each a ratio measured in the same run.
//
// - vector add (N = 2^28) against the device-to-device copy: at least 0.90;
// - every rung of the matrix-multiply ladder at 4096³ against cuBLAS SGEMM, all timed in one lesson
//   run on the same inputs; the best rung (warptile) at least 0.75;
// - the dense layer (4096 × 4096, fast product) fused against the unfused three-launch chain of the
//   same product at batch 1: at least 1.5x faster; and against cuBLAS + the fused epilogue at
//   batch 4096: at most 1.15x slower (a ratio of at least 1 / 1.15);
// - the multi-threaded CPU vector add against the host's memcpy, both over every hardware thread:
//   at least 0.70;
// - the interop path against the copy path for one traced frame: at least 20x faster;
// - a hook for the UI frame time at 16M elements, measured by the UI's own benchmark.

#include "command_bench_perf.hpp"

#include <algorithm>
#include <string_view>

#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"
#include "host_bandwidth.hpp"
#include "ratio_suite.hpp"
#include "ratio_table.hpp"

namespace tl::cli {
namespace {

struct PerfSizes {
  std::uint64_t vector_n;
  std::uint32_t matmul_side;
  std::uint32_t dense_side;
  std::uint32_t dense_large_batch;
  std::uint64_t host_n;
  std::uint64_t ui_frame_n;  // elements traced and drawn per UI frame
};
// The sizes on a GPU; on the emulator small enough for seconds (the ratios then say little
// about a GPU, and the table's header names the device).
constexpr PerfSizes kGpuSizes{1ull << 28, 4096, 4096, 4096, 1ull << 26, 1ull << 24};
constexpr PerfSizes kEmulatorSizes{1ull << 20, 128, 128, 16, 1ull << 24, 1ull << 16};

constexpr double kVectorAddTarget = 0.90;
constexpr double kBestRungTarget = 0.75;
constexpr double kFusedBatch1Target = 1.5;
constexpr double kFusedLargeBatchTarget = 1.0 / 1.15;
constexpr double kCpuVectorAddTarget = 0.70;
constexpr double kInteropTarget = 20.0;

// The values lesson `id`'s choice parameter `name` takes, as the lesson declares them.
std::vector<std::string> lesson_choices(std::string_view id, std::string_view name) {
  auto lesson = compute::make_lesson(id);
  if (!lesson) return {};
  for (const lessons::ParamSpec& spec : (*lesson)->params()) {
    if (spec.name == name) return spec.choices;
  }
  return {};
}

Status matmul_ladder_ratios(compute::Device& device, const PerfSizes& sizes, int repeats,
                            std::vector<RatioRow>& rows) {
  const std::string side = std::to_string(sizes.matmul_side);
  // One lesson run times every rung and cuBLAS on the same inputs; the tiled rung with TILE = 32.
  auto report = run_lesson_once(
      device, "matmul",
      {{"m", side}, {"n", side}, {"k", side}, {"kernel", "warptile"}, {"tile", "32"}}, repeats);
  if (!report) return report.error();
  const compute::TimingRow* cublas =
      find_timed_row(*report, [](std::string_view name) { return name == "cuBLAS SGEMM"; });
  const double reference = cublas != nullptr ? per_second(cublas->flops, *cublas) / 1e9 : 0;
  // The rungs are the lesson's own "kernel" choices, in the ladder's order.
  for (const std::string& rung : lesson_choices("matmul", "kernel")) {
    const compute::TimingRow* row = find_timed_row(*report, [&](std::string_view name) {
      return (contains(name, "GPU " + rung + " kernel") ||
              contains(name, "Emulated " + rung + " kernel"));
    });
    RatioRow ratio = rate_ratio("matmul " + rung + ", " + side + "³",
                                row != nullptr ? per_second(row->flops, *row) / 1e9 : 0, "GFLOP/s",
                                "cuBLAS SGEMM, same run", row != nullptr ? reference : 0);
    if (row == nullptr) {
      ratio.absent = "not timed: see `threadlab run --lesson matmul --kernel " + rung + "`";
    } else if (reference <= 0) {
      ratio.absent = "no cuBLAS on this device";
    }
    if (rung == "warptile") ratio = with_target(ratio, kBestRungTarget);
    rows.push_back(std::move(ratio));
  }
  return Status::ok();
}

Status dense_ratios(compute::Device& device, const PerfSizes& sizes, std::uint32_t batch,
                    int repeats, std::vector<RatioRow>& rows) {
  const std::string side = std::to_string(sizes.dense_side);
  const std::string layer = "dense " + side + "×" + side + ", batch " + std::to_string(batch);
  auto report = run_lesson_once(device, "dense-layer",
                                {{"inputs", side},
                                 {"neurons", side},
                                 {"batch", std::to_string(batch)},
                                 {"path", "fused"},
                                 {"product", "fast"}},
                                repeats);
  if (!report) return report.error();
  const auto plotted = [&](std::string_view part, std::string_view unless) {
    return find_timed_row(*report, [&](std::string_view name) {
      return contains(name, part) && (unless.empty() || !contains(name, unless)) &&
             !contains(name, "/3") && !contains(name, "end to end");
    });
  };
  const compute::TimingRow* fused = plotted("fused", "unfused");
  const compute::TimingRow* unfused = plotted("unfused", "");
  const compute::TimingRow* cublas = plotted("cuBLAS + fused epilogue", "");
  if (fused == nullptr || unfused == nullptr) {
    return Error{ErrorKind::kCudaError, "dense layer: no fused or unfused timing"};
  }
  if (batch == 1) {
    rows.push_back(with_target(
        time_ratio(layer + ": fused (fast product)", fused->stats.median_ms,
                   "unfused, same product + bias + sigmoid (3 launches)", unfused->stats.median_ms),
        kFusedBatch1Target));
    // For the record: the lesson's original chain, one thread per element of Y.
    auto tiled = run_lesson_once(device, "dense-layer",
                                 {{"inputs", side},
                                  {"neurons", side},
                                  {"batch", "1"},
                                  {"path", "fused"},
                                  {"product", "tiled"}},
                                 repeats);
    if (!tiled) return tiled.error();
    const compute::TimingRow* tiled_unfused = find_timed_row(*tiled, [](std::string_view name) {
      return contains(name, "unfused") && !contains(name, "/3");
    });
    rows.push_back(time_ratio(layer + ": fused (fast product)", fused->stats.median_ms,
                              "unfused, tiled product (the lesson's first kernels)",
                              tiled_unfused != nullptr ? tiled_unfused->stats.median_ms : 0));
    return Status::ok();
  }
  RatioRow against = with_target(
      time_ratio(layer + ": fused (fast product)", fused->stats.median_ms,
                 "cuBLAS SGEMM + fused epilogue", cublas != nullptr ? cublas->stats.median_ms : 0),
      kFusedLargeBatchTarget);
  if (cublas == nullptr) against.absent = "no cuBLAS on this device";
  rows.push_back(std::move(against));
  return Status::ok();
}

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
        auto vector_add = vector_add_ratio(device, sizes.vector_n, ceilings, options.repeats);
        if (!vector_add) return vector_add.error();
        rows.push_back(with_target(std::move(*vector_add), kVectorAddTarget));
        TL_RETURN_IF_ERROR(matmul_ladder_ratios(device, sizes, options.repeats, rows));
        TL_RETURN_IF_ERROR(dense_ratios(device, sizes, 1, options.repeats, rows));
        TL_RETURN_IF_ERROR(
            dense_ratios(device, sizes, sizes.dense_large_batch, options.repeats, rows));
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
