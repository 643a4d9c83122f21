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
  if (const Status checked = check_bench_options(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
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

Status lesson_benchmarks(compute::BenchSuite suite, compute::Device& device,
                         const DeviceCeilings& ceilings, int repeats, std::vector<RatioRow>& rows) {
  const compute::BenchContext context{suite, device, ceilings, repeats};
  for (const compute::LessonModule* module : compute::registered_lessons()) {
    if (module->benchmark == nullptr) continue;
    TL_RETURN_IF_ERROR(module->benchmark(context, rows));
  }
  return Status::ok();
}

RatioRow trace_delivery_ratio(compute::Device& device, int repeats) {
  const std::uint64_t n = device.is_gpu() ? (std::uint64_t{1} << 24) : (std::uint64_t{1} << 20);
  const std::string_view lesson_id = compute::first_lesson_id();
  const std::string what = "traced frame of " + std::string(lesson_id) + ", " +
                           format_power_of_two(n) + " elements: interop";
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
  auto lesson = compute::make_lesson(lesson_id);
  if (!lesson) {
    row.absent = lesson.message();
    return row;
  }
  if (const Status sized = (*lesson)->configure((*lesson)->values_for_size(n)); !sized) {
    row.absent = sized.message();
    return row;
  }
  auto interop = interop::time_trace_delivery(device, BackendKind::kCudaInterop, **lesson, repeats);
  auto copy = interop::time_trace_delivery(device, BackendKind::kCudaCopy, **lesson, repeats);
  if (!interop || !copy) {
    row.absent = !interop ? interop.message() : copy.message();
    return row;
  }
  return time_ratio(what, *interop, "copy path (device → host → GL)", *copy);
}

}  // namespace tl::cli
