// `threadlab bench --suite ratios`: the comparisons a user makes, each measured in one run on one
// device: vector add against the device's copy bandwidth, each matrix-multiply kernel against
// cuBLAS SGEMM at the same size, the fused dense layer against the unfused chain and against
// cuBLAS with the fused epilogue.

#include <algorithm>
#include <functional>
#include <string_view>

#include "commands.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/format.hpp"
#include "interop/trace_delivery_timing.hpp"
#include "platform/egl_context.hpp"
#include "ratio_suite.hpp"
#include "ratio_table.hpp"

namespace tl::cli {
namespace {

// The sizes of the comparisons: the on a GPU, small enough for seconds on the emulator.
struct SuiteSizes {
  std::uint64_t vector_n;
  std::uint32_t matmul_side;
  std::uint32_t dense_side;
  std::uint32_t dense_large_batch;
};
constexpr SuiteSizes kGpuSizes{1ull << 28, 4096, 4096, 4096};
constexpr SuiteSizes kEmulatorSizes{1ull << 20, 96, 128, 16};

Status vector_add_ratios(compute::Device& device, const SuiteSizes& sizes,
                         const DeviceCeilings& ceilings, int repeats, std::vector<RatioRow>& rows) {
  auto row = vector_add_ratio(device, sizes.vector_n, ceilings, repeats);
  if (!row) return row.error();
  rows.push_back(std::move(*row));
  return Status::ok();
}

Status matmul_ratios(compute::Device& device, const SuiteSizes& sizes, int repeats,
                     std::vector<RatioRow>& rows) {
  const std::string side = std::to_string(sizes.matmul_side);
  const std::string size_text = side + "³";
  bool naive_done = false;
  for (const char* tile : {"16", "32"}) {
    auto report = run_lesson_once(
        device, "matmul",
        {{"m", side}, {"n", side}, {"k", side}, {"kernel", "tiled"}, {"tile", tile}}, repeats);
    if (!report) return report.error();
    const compute::TimingRow* cublas =
        find_timed_row(*report, [](std::string_view name) { return name == "cuBLAS SGEMM"; });
    const double reference = cublas != nullptr ? per_second(cublas->flops, *cublas) / 1e9 : 0;
    for (const compute::TimingRow& row : report->rows) {
      if (row.stats.empty()) continue;
      const bool naive = contains(row.name, "naive kernel");
      const bool tiled = contains(row.name, "tiled kernel");
      if ((!naive && !tiled) || (naive && naive_done)) continue;
      naive_done = naive_done || naive;
      RatioRow ratio = rate_ratio(row.name + ", " + size_text, per_second(row.flops, row) / 1e9,
                                  "GFLOP/s", "cuBLAS SGEMM, same size", reference);
      if (reference <= 0) ratio.absent = "no cuBLAS on this device";
      rows.push_back(std::move(ratio));
    }
  }
  return Status::ok();
}

Status dense_ratios(compute::Device& device, const SuiteSizes& sizes, std::uint32_t batch,
                    int repeats, std::vector<RatioRow>& rows) {
  const std::string side = std::to_string(sizes.dense_side);
  auto report = run_lesson_once(
      device, "dense-layer",
      {{"inputs", side}, {"neurons", side}, {"batch", std::to_string(batch)}, {"path", "fused"}},
      repeats);
  if (!report) return report.error();
  const auto plotted = [&](std::string_view part, std::string_view unless) {
    return find_timed_row(*report, [&](std::string_view name) {
      return contains(name, part) && (unless.empty() || !contains(name, unless)) &&
             !contains(name, "/3");
    });
  };
  const compute::TimingRow* fused = plotted("fused", "unfused");
  const compute::TimingRow* unfused = plotted("unfused", "");
  const compute::TimingRow* cublas = plotted("cuBLAS + fused epilogue", "");
  if (fused == nullptr || unfused == nullptr) {
    return Error{ErrorKind::kCudaError, "dense layer: no fused or unfused timing"};
  }
  const std::string layer = "dense layer " + side + "×" + side + ", batch " + std::to_string(batch);
  rows.push_back(time_ratio(layer + ": fused", fused->stats.median_ms, "unfused, 3 launches",
                            unfused->stats.median_ms));
  RatioRow against_cublas =
      time_ratio(layer + ": fused", fused->stats.median_ms, "cuBLAS + fused epilogue",
                 cublas != nullptr ? cublas->stats.median_ms : 0);
  if (cublas == nullptr) against_cublas.absent = "no cuBLAS on this device";
  rows.push_back(std::move(against_cublas));
  return Status::ok();
}

}  // namespace

int command_bench_ratios(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  return run_ratio_suite(
      options, out, err,
      [&options](compute::Device& device, const DeviceCeilings& ceilings,
                 std::vector<RatioRow>& rows) -> Status {
        const SuiteSizes& sizes = device.is_gpu() ? kGpuSizes : kEmulatorSizes;
        RatioRow copy =
            rate_ratio(device.is_gpu() ? "device-to-device copy" : "host memcpy",
                       ceilings.copy_bytes_per_second / 1e9, "GB/s", "theoretical DRAM bandwidth",
                       device.info().theoretical_bandwidth_gbps());
        if (copy.reference <= 0) copy.absent = "unknown on this device";
        rows.push_back(std::move(copy));
        TL_RETURN_IF_ERROR(vector_add_ratios(device, sizes, ceilings, options.repeats, rows));
        TL_RETURN_IF_ERROR(matmul_ratios(device, sizes, options.repeats, rows));
        TL_RETURN_IF_ERROR(dense_ratios(device, sizes, 1, options.repeats, rows));
        TL_RETURN_IF_ERROR(
            dense_ratios(device, sizes, sizes.dense_large_batch, options.repeats, rows));
        rows.push_back(trace_delivery_ratio(device, std::max(options.repeats, 5)));
        return Status::ok();
      });
}

}  // namespace tl::cli
