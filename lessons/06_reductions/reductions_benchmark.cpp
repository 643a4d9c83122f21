// Lesson 6's comparisons for the benchmark suites, all from one timed run on the suite's device:
// each sum rung's read rate against a device-to-device copy of the same data (bytes read per second
// against the copy's bytes read + written per second), the fastest rung against CUB's device
// reduce, and the stable softmax's rate (bytes read + written) against the same copy. Issue #19's
// targets: the fastest rung >= 0.95 of the copy and of CUB, the softmax over 4096 × 4096 >= 0.8
// of the copy.

#include "reductions_benchmark.hpp"

#include <string>

#include "core/format.hpp"
#include "lessons/06_reductions/reductions.hpp"

namespace tl::compute {
namespace {

constexpr double kBestRungTarget = 0.95;
constexpr double kAgainstLibraryTarget = 0.95;
constexpr double kSoftmaxTarget = 0.8;

}  // namespace

Status reductions_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  Device& device = context.device;
  const bool gpu = device.is_gpu();
  const std::uint64_t n = gpu ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 20);
  const std::uint32_t side = gpu ? 4096 : 256;
  constexpr std::uint32_t kBlock = 256;
  // The vectorized rung with whole resident blocks on every SM, one wave, no tail.
  const std::uint32_t sm_threads = device.info().max_threads_per_multiprocessor != 0
                                       ? device.info().max_threads_per_multiprocessor
                                       : 2048;
  const std::uint32_t grid =
      lessons::device_filling_grid(device.info().multiprocessors, sm_threads, kBlock);
  auto report = run_lesson_once(device, lessons::kReductionsId,
                                {{"n", std::to_string(n)},
                                 {"block", std::to_string(kBlock)},
                                 {"grid", std::to_string(grid)},
                                 {"kernel", "vectorized"},
                                 {"rows", std::to_string(side)},
                                 {"cols", std::to_string(side)}},
                                context.repeats);
  if (!report) return report.error();
  const TimingRow* copy = find_timed_row(*report, {TimingRole::kCopy, "device-to-device"});
  if (copy == nullptr) return Error{ErrorKind::kCudaError, "reductions: no copy timing"};
  const double copy_rate = per_second(copy->bytes, *copy) / 1e9;
  const std::string against = gpu ? "device-to-device copy (read + written)" : "emulated copy";
  const std::string prefix = gpu ? "" : "emulated (CPU) ";
  const std::string size = ", N = " + format_power_of_two(n);

  const TimingRow* best = nullptr;
  for (lessons::SumRung rung : kernels::kSumRungs) {
    const std::string name(lessons::to_string(rung));
    const TimingRow* row = find_timed_row(*report, {TimingRole::kKernel, name});
    if (row == nullptr) return Error{ErrorKind::kCudaError, "reductions: no timing for " + name};
    if (best == nullptr || row->stats.median_ms < best->stats.median_ms) best = row;
    if (context.suite == BenchSuite::kRatios) {
      rows.push_back(rate_ratio(prefix + "sum, " + name + size, per_second(row->bytes, *row) / 1e9,
                                "GB/s", against, copy_rate));
    }
  }
  if (context.suite == BenchSuite::kPerf) {
    rows.push_back(
        with_target(rate_ratio(prefix + "fastest sum (" + best->key.variant + ")" + size,
                               per_second(best->bytes, *best) / 1e9, "GB/s", against, copy_rate),
                    kBestRungTarget));
  }
  const TimingRow* library = find_timed_row(*report, {TimingRole::kLibrary, "cub-device-reduce"});
  RatioRow vs_library;
  if (library != nullptr) {
    vs_library =
        rate_ratio(prefix + "fastest sum (" + best->key.variant + ")" + size,
                   per_second(best->bytes, *best) / 1e9, "GB/s",
                   "CUB DeviceReduce::Sum (same data)", per_second(library->bytes, *library) / 1e9);
  } else {
    vs_library.what = prefix + "fastest sum (" + best->key.variant + ")" + size;
    vs_library.value = per_second(best->bytes, *best) / 1e9;
    vs_library.unit = "GB/s";
    vs_library.against = "CUB DeviceReduce::Sum";
    vs_library.absent = "CUB runs only on an NVIDIA GPU";
  }
  if (context.suite == BenchSuite::kPerf && library != nullptr) {
    vs_library = with_target(std::move(vs_library), kAgainstLibraryTarget);
  }
  rows.push_back(std::move(vs_library));

  const TimingRow* softmax = find_timed_row(*report, {TimingRole::kKernel, "softmax-stable"});
  if (softmax == nullptr) return Error{ErrorKind::kCudaError, "reductions: no softmax timing"};
  RatioRow softmax_row =
      rate_ratio(prefix + "softmax, stable, " + std::to_string(side) + " × " + std::to_string(side),
                 per_second(softmax->bytes, *softmax) / 1e9, "GB/s", against, copy_rate);
  if (context.suite == BenchSuite::kPerf)
    softmax_row = with_target(std::move(softmax_row), kSoftmaxTarget);
  rows.push_back(std::move(softmax_row));
  return Status::ok();
}

}  // namespace tl::compute
