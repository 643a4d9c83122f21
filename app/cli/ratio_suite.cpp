#include "ratio_suite.hpp"

#include <string>

#include "compute/ceilings.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"
#include "interop/backend_selection.hpp"
#include "interop/trace_delivery_timing.hpp"
#include "platform/egl_context.hpp"

namespace tl::cli {

int run_ratio_suite(const BenchOptions& options, std::ostream& out, std::ostream& err,
                    const SuiteMeasure& measure) {
  if (options.format != "table" && options.format != "csv" && options.format != "json") {
    return fail(err, "--format must be table, csv or json", kExitUsage);
  }
  if (options.repeats < 1) return fail(err, "--repeats must be at least 1", kExitUsage);
  auto preference = interop::parse_backend_preference(options.launch.backend);
  if (!preference) return fail(err, "--backend: " + preference.message(), kExitUsage);
  auto choice = interop::choose_backend(*preference, false);
  if (!choice) return fail(err, choice.message(), kExitFailure);
  compute::Device& device = *choice->device;
  auto ceilings = compute::measure_ceilings(device);
  if (!ceilings) return fail(err, "ceilings: " + ceilings.message(), kExitFailure);
  std::vector<RatioRow> rows;
  const Status measured = measure(device, *ceilings, rows);
  if (!measured) return fail(err, measured.message(), kExitFailure);
  if (options.format == "csv") {
    print_ratio_csv(out, rows);
  } else if (options.format == "json") {
    print_ratio_json(out, device.info().name, rows);
  } else {
    print_ratio_table(out, device.info().name, rows);
  }
  return kExitOk;
}

Result<compute::LessonReport> run_lesson_once(compute::Device& device, std::string_view lesson_id,
                                              const lessons::ParamValues& values, int repeats) {
  auto lesson = compute::make_lesson(lesson_id);
  if (!lesson) return lesson.error();
  TL_RETURN_IF_ERROR((*lesson)->configure(values));
  (*lesson)->set_repeats(repeats);
  (*lesson)->set_time_cpu(false);
  auto report = (*lesson)->run_timed(device, nullptr);
  if (!report) return report.error();
  if (report->check && !report->check->passed) {
    return Error{ErrorKind::kCudaError, std::string(lesson_id) + ": " + report->check->description};
  }
  return report;
}

const compute::TimingRow* find_timed_row(const compute::LessonReport& report,
                                         const std::function<bool(std::string_view)>& matches) {
  for (const compute::TimingRow& row : report.rows) {
    if (!row.stats.empty() && matches(row.name)) return &row;
  }
  return nullptr;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

double per_second(double work, const compute::TimingRow& row) {
  return work / (row.stats.median_ms * 1e-3);
}

Result<RatioRow> vector_add_ratio(compute::Device& device, std::uint64_t n,
                                  const DeviceCeilings& ceilings, int repeats) {
  auto report = run_lesson_once(device, "vector-add", {{"n", std::to_string(n)}}, repeats);
  if (!report) return report.error();
  const compute::TimingRow* kernel = find_timed_row(*report, [](std::string_view name) {
    return contains(name, "kernel") && !contains(name, "end to end");
  });
  if (kernel == nullptr) return Error{ErrorKind::kCudaError, "vector add: no kernel timing"};
  return rate_ratio("vector add kernel, N = " + format_power_of_two(n),
                    per_second(kernel->bytes, *kernel) / 1e9, "GB/s",
                    device.is_gpu() ? "device-to-device copy" : "host memcpy",
                    ceilings.copy_bytes_per_second / 1e9);
}

RatioRow trace_delivery_ratio(compute::Device& device, int repeats) {
  const std::uint64_t n = device.is_gpu() ? (std::uint64_t{1} << 24) : (std::uint64_t{1} << 20);
  const std::string what = "traced frame, N = " + format_power_of_two(n) + ": interop";
  RatioRow row = time_ratio(what, 0, "copy path (device → host → GL)", 0);
  if (!device.is_gpu()) {
    row.absent = "interop needs a CUDA GPU";
    return row;
  }
  auto gl = platform::EglContext::create({.allow_software = false});
  if (!gl) {
    row.absent = "no OpenGL on the GPU: " + gl.message();
    return row;
  }
  auto interop = interop::time_trace_delivery(device, BackendKind::kCudaInterop, n, repeats);
  auto copy = interop::time_trace_delivery(device, BackendKind::kCudaCopy, n, repeats);
  if (!interop || !copy) {
    row.absent = !interop ? interop.message() : copy.message();
    return row;
  }
  return time_ratio(what, *interop, "copy path (device → host → GL)", *copy);
}

}  // namespace tl::cli
