// Lesson 7's comparisons for the benchmark suites, from one timed run on the suite's device (issue
// #18's targets): pinned host → device copies at 256 MiB against the link's reported ceiling, and
// the 4-stream pipeline against its ideal bound (the busiest engine working without a pause), with
// the kernel's work balanced so copies and compute take about as long. The ratios suite adds what
// a user compares: pinned against pageable, the one batched copy against many small ones, and the
// pipeline on 4 streams against 1.

#include "moving_data_benchmark.hpp"

#include <string>

#include "core/format.hpp"
#include "lessons/07_moving_data/moving_data.hpp"
#include "moving_data_lesson.hpp"

namespace tl::compute {
namespace {

constexpr double kPinnedShareOfLink = 0.80;
// Within 1.15x of the ideal bound: the time ratio (ideal / measured) at least 1 / 1.15.
constexpr double kPipelineOverIdeal = 1.15;

const lessons::CopyPoint* point_at(const CopySeries* series, std::uint64_t bytes) {
  if (series == nullptr) return nullptr;
  for (const auto& p : series->points) {
    if (p.bytes == bytes) return &p;
  }
  return nullptr;
}

}  // namespace

Status moving_data_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  Device& device = context.device;
  const bool gpu = device.is_gpu();
  // 256 MiB on a GPU (the size), 16 MiB on the emulator; 16 chunks on 4 streams.
  const std::uint64_t bytes = gpu ? (256ull << 20) : (16ull << 20);
  auto report = run_lesson_once(device, lessons::kMovingDataId,
                                {{"bytes", std::to_string(bytes)},
                                 {"copy_top", std::to_string(bytes)},
                                 {"chunks", "16"},
                                 {"streams", "4"},
                                 {"memory", "pinned"},
                                 {"work", "0"}},
                                context.repeats);
  if (!report) return report.error();
  const MovingDataReport* r = moving_data_report(report->attachment);
  if (r == nullptr) return Error{ErrorKind::kCudaError, "moving data: no report"};
  const std::string prefix = gpu ? "" : "emulated (CPU) ";
  const std::string size = format_bytes(static_cast<double>(bytes));

  const lessons::CopyPoint* pinned = point_at(r->series(true, true), bytes);
  const lessons::CopyPoint* pageable = point_at(r->series(true, false), bytes);
  if (pinned != nullptr) {
    RatioRow row;
    row.what = prefix + "copy host → device, pinned, " + size;
    row.value = pinned->bytes_per_second() / 1e9;
    row.unit = "GB/s";
    row.against = "the link's ceiling";
    if (r->link.known) {
      row = rate_ratio(row.what, row.value, "GB/s", "link ceiling, " + r->link.describe(),
                       r->link.bytes_per_second / 1e9);
      if (context.suite == BenchSuite::kPerf) row = with_target(std::move(row), kPinnedShareOfLink);
    } else {
      row.absent = r->link.describe();
    }
    rows.push_back(std::move(row));
  }
  if (context.suite == BenchSuite::kRatios && pinned != nullptr && pageable != nullptr) {
    rows.push_back(rate_ratio(prefix + "copy host → device, pinned, " + size,
                              pinned->bytes_per_second() / 1e9, "GB/s", "the same from pageable",
                              pageable->bytes_per_second() / 1e9));
  }
  if (context.suite == BenchSuite::kRatios && !r->many_small.empty()) {
    rows.push_back(
        time_ratio(prefix + "one copy of " +
                       format_bytes(static_cast<double>(r->small_copy_bytes * r->small_copies)),
                   r->one_batched.median_ms,
                   std::to_string(r->small_copies) + " copies of " +
                       format_bytes(static_cast<double>(r->small_copy_bytes)),
                   r->many_small.median_ms));
  }
  const PipelineRun* four = r->selected_pipeline();
  if (four == nullptr) return Error{ErrorKind::kCudaError, "moving data: no 4-stream pipeline"};
  RatioRow pipeline =
      time_ratio(prefix + (four->modelled ? "MODELLED " : "") + "pipeline, 4 streams, 16 chunks, " +
                     size + ", work " + std::to_string(r->params.rounds),
                 four->summary.total_ms, "ideal bound (busiest engine)", four->summary.ideal_ms);
  if (context.suite == BenchSuite::kPerf && !four->modelled) {
    pipeline = with_target(std::move(pipeline), 1.0 / kPipelineOverIdeal);
  }
  rows.push_back(std::move(pipeline));
  if (context.suite == BenchSuite::kRatios) {
    for (const PipelineRun& run : r->pipelines) {
      if (run.streams != 1) continue;
      rows.push_back(
          time_ratio(prefix + (four->modelled ? "MODELLED " : "") + "pipeline, 4 streams, " + size,
                     four->summary.total_ms, "1 stream", run.summary.total_ms));
    }
  }
  return Status::ok();
}

}  // namespace tl::compute
