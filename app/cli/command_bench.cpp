// `threadlab bench`: CPU against GPU over a sweep of sizes, as a table, CSV or JSON.

#include <span>

#include "commands.hpp"
#include "core/parse.hpp"
#include "interop/backend_selection.hpp"
#include "launch_request.hpp"
#include "timing_table.hpp"

namespace tl::cli {

namespace {

// One configured lesson per size of the sweep, each at the command line's parameters: every size
// is checked before anything runs, so a typo fails at once, not after an hour.
Result<std::vector<std::unique_ptr<compute::Lesson>>> sweep_points(
    const BenchOptions& options, std::span<const std::uint64_t> sizes) {
  auto base = configure_lesson(options.launch);
  if (!base) return base.error();
  std::vector<std::unique_ptr<compute::Lesson>> points;
  for (std::uint64_t size : sizes) {
    auto lesson = configure_lesson(options.launch);
    if (!lesson) return lesson.error();
    const Status sized = (*lesson)->configure((*base)->values_for_size(size));
    if (!sized) {
      return invalid_argument("--sizes: " + std::to_string(size) + ": " + sized.message());
    }
    (*lesson)->set_repeats(options.repeats);
    (*lesson)->set_time_cpu(options.cpu);
    points.push_back(std::move(*lesson));
  }
  return points;
}

// The options apart from the sweep's sizes and lesson, which sweep_points checks.
Status check_bench_flags(const BenchOptions& options) {
  if (options.format != "table" && options.format != "csv" && options.format != "json") {
    return invalid_argument("--format must be table, csv or json");
  }
  TL_RETURN_IF_ERROR(check_repeats(options.repeats));
  TL_RETURN_IF_ERROR(check_backend_name(options.launch.backend));
  if (!options.suite.empty()) {
    if (options.suite != "ratios" && options.suite != "perf" && options.suite != "ui") {
      return invalid_argument("--suite must be ratios, perf or ui");
    }
    // A suite measures its own fixed sizes on every lesson: a sweep's option would be ignored.
    if (!options.sweep_options_given.empty()) {
      return invalid_argument(
          "--suite " + options.suite + " measures fixed sizes of every lesson: " +
          options.sweep_options_given.front() + " is for a sweep (drop it, or drop --suite)");
    }
  }
  return Status::ok();
}

}  // namespace

Status check_bench_options(const BenchOptions& options) {
  TL_RETURN_IF_ERROR(check_bench_flags(options));
  if (!options.suite.empty()) return Status::ok();
  auto sizes = parse_count_list(options.sizes);
  if (!sizes) return invalid_argument("--sizes: " + sizes.message());
  auto points = sweep_points(options, *sizes);
  if (!points) return points.error();
  return Status::ok();
}

int command_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_bench_flags(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  auto parsed = parse_count_list(options.sizes);
  if (!parsed) return fail(err, "--sizes: " + parsed.message(), kExitUsage);
  const std::vector<std::uint64_t> sizes = std::move(*parsed);
  auto base = configure_lesson(options.launch);
  if (!base) return fail(err, base.message(), kExitUsage);
  auto made = sweep_points(options, sizes);
  if (!made) return fail(err, made.message(), kExitUsage);
  std::vector<std::unique_ptr<compute::Lesson>>& points = *made;
  auto preference = interop::parse_backend_preference(options.launch.backend);
  if (!preference) return fail(err, "--backend: " + preference.message(), kExitUsage);
  auto choice = interop::choose_backend(*preference, false);
  if (!choice) return fail(err, choice.message(), kExitFailure);
  const std::string backend = choice->device->is_gpu() ? "cuda" : "emulator";
  const std::string id((*base)->info().id);

  std::vector<BenchRow> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uint64_t size = sizes[i];
    if (const Status safe = points[i]->check_watchdog(*choice->device); !safe) {
      return fail(err, "size " + std::to_string(size) + ": " + safe.message(), kExitFailure);
    }
    auto report = points[i]->run_timed(*choice->device, nullptr);
    if (!report)
      return fail(err, "size " + std::to_string(size) + ": " + report.message(), kExitFailure);
    if (report->check && !report->check->passed) {
      return fail(err, "size " + std::to_string(size) + ": " + report->check->description,
                  kExitFailure);
    }
    rows.push_back({size, points[i]->launch_config(), *report});
  }
  if (options.format == "csv") {
    print_bench_csv(out, id, rows, backend);
  } else if (options.format == "json") {
    print_bench_json(out, id, rows, backend, choice->device->info().name);
  } else {
    out << "device: " << choice->device->info().name << '\n';
    print_bench_table(out, id, (*base)->size_label(), rows, backend);
  }
  return kExitOk;
}

}  // namespace tl::cli
