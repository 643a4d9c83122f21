#include "compute/lessons/lesson_benchmark.hpp"

#include <string>

#include "compute/lessons/lesson_registry.hpp"

namespace tl::compute {

Result<LessonReport> run_lesson_once(Device& device, std::string_view id,
                                     const lessons::ParamValues& values, int repeats) {
  auto lesson = make_lesson(id);
  if (!lesson) return lesson.error();
  TL_RETURN_IF_ERROR((*lesson)->configure(values));
  (*lesson)->set_repeats(repeats);
  (*lesson)->set_time_cpu(false);
  auto report = (*lesson)->run_timed(device, nullptr);
  if (!report) return report.error();
  if (report->check && !report->check->passed) {
    return Error{ErrorKind::kCudaError, std::string(id) + ": " + report->check->description};
  }
  return report;
}

const TimingRow* find_timed_row(const LessonReport& report, const TimingKey& key) {
  const TimingRow* row = report.find(key);
  return row != nullptr && !row->stats.empty() ? row : nullptr;
}

double per_second(double work, const TimingRow& row) {
  return work / (row.stats.median_ms * 1e-3);
}

}  // namespace tl::compute
