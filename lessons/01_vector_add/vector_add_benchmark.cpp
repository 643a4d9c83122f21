// Lesson 1's comparison for the benchmark suites: the vector-add kernel's bandwidth against the
// device's own copy (a GPU) or the host's memcpy (the emulator), measured in the same run.

#include "vector_add_benchmark.hpp"

#include <string>

#include "core/format.hpp"
#include "lessons/01_vector_add/vector_add.hpp"

namespace tl::compute {
namespace {

// Issue #20's target: the vectorized kernel moves at least 0.98 of what a device-to-device copy
// moves (issue #6 asked 0.90 of the one-element-per-thread kernel, which reached 0.81 on an H200).
constexpr double kVectorAddTarget = 0.98;

}  // namespace

Status vector_add_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  Device& device = context.device;
  // Large enough to reach DRAM bandwidth on a GPU; seconds on the emulator.
  const std::uint64_t n = device.is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 20);
  auto report =
      run_lesson_once(device, lessons::kVectorAddId, {{"n", std::to_string(n)}}, context.repeats);
  if (!report) return report.error();
  const char* const copy = device.is_gpu() ? "device-to-device copy" : "host memcpy";
  const double copy_gb_per_second = context.ceilings.copy_bytes_per_second / 1e9;
  // Both kernels of the same run: the lesson's first one (one element per thread, the grid the
  // lesson's launch configuration gives by default: 256 threads a block, enough blocks to cover N)
  // and the vectorized one (float4 per thread), which carries the target.
  const TimingRow* kernel = find_timed_row(*report, {TimingRole::kKernel, ""});
  const TimingRow* vectorized = find_timed_row(*report, {TimingRole::kKernel, "vectorized"});
  if (kernel == nullptr || vectorized == nullptr) {
    return Error{ErrorKind::kCudaError, "vector add: no kernel timing"};
  }
  rows.push_back(rate_ratio("vector add, one element per thread, N = " + format_power_of_two(n),
                            per_second(kernel->bytes, *kernel) / 1e9, "GB/s", copy,
                            copy_gb_per_second));
  RatioRow row = rate_ratio("vector add, float4 per thread, N = " + format_power_of_two(n),
                            per_second(vectorized->bytes, *vectorized) / 1e9, "GB/s", copy,
                            copy_gb_per_second);
  if (context.suite == BenchSuite::kPerf) row = with_target(std::move(row), kVectorAddTarget);
  rows.push_back(std::move(row));
  // The lesson's two end-to-end series, from the same run: copies from pinned host memory against
  // copies from pageable memory.
  const TimingRow* pageable = find_timed_row(*report, {TimingRole::kEndToEndPageable, ""});
  const TimingRow* pinned = find_timed_row(*report, {TimingRole::kEndToEndPinned, ""});
  if (context.suite == BenchSuite::kRatios && pageable != nullptr && pinned != nullptr) {
    rows.push_back(
        time_ratio(std::string(device.is_gpu() ? "" : "emulated (CPU) ") +
                       "vector add end to end from pinned memory, N = " + format_power_of_two(n),
                   pinned->stats.median_ms, "from pageable memory", pageable->stats.median_ms));
  }
  return Status::ok();
}

}  // namespace tl::compute
