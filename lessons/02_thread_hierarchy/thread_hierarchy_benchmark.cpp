// Lesson 2's comparison for the benchmark suites: warp divergence, the kernel branching on
// threadIdx.x % 2 against the one branching on threadIdx.x / 32 % 2, measured in one timed run.

#include "thread_hierarchy_benchmark.hpp"

#include <string>

#include "core/format.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"

namespace tl::compute {

Status thread_hierarchy_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  if (context.suite != BenchSuite::kRatios) return Status::ok();
  Device& device = context.device;
  // The lesson's links on a GPU; on the emulator, which runs 512 operations per element one
  // thread at a time, a size that takes a fraction of a second.
  const std::uint64_t n = device.is_gpu() ? (std::uint64_t{1} << 20) : (std::uint64_t{1} << 14);
  auto report = run_lesson_once(
      device, lessons::kThreadHierarchyId,
      {{"n", std::to_string(n)}, {"block", "256"}, {"grid", "auto"}, {"branch", "by-thread"}},
      context.repeats);
  if (!report) return report.error();
  const TimingRow* by_thread = find_timed_row(*report, {TimingRole::kKernel, "by-thread"});
  const TimingRow* by_warp = find_timed_row(*report, {TimingRole::kKernel, "by-warp"});
  if (by_thread == nullptr || by_warp == nullptr) {
    return Error{ErrorKind::kCudaError, "thread hierarchy: no timing of the divergence kernels"};
  }
  rows.push_back(time_ratio(
      std::string(device.is_gpu() ? "" : "emulated (CPU) ") +
          "branch on threadIdx.x % 2, blocks of 256, N = " + format_power_of_two(n),
      by_thread->stats.median_ms, "branch on threadIdx.x / 32 % 2", by_warp->stats.median_ms));
  return Status::ok();
}

}  // namespace tl::compute
