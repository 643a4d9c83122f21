// `threadlab bench`: CPU against GPU over a sweep of sizes, as a table, CSV or JSON.

#include "commands.hpp"
#include "core/parse.hpp"
#include "interop/backend_selection.hpp"
#include "launch_request.hpp"
#include "timing_table.hpp"

namespace tl::cli {

int command_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format != "table" && options.format != "csv" && options.format != "json") {
    return fail(err, "--format must be table, csv or json", kExitUsage);
  }
  if (options.repeats < 1) return fail(err, "--repeats must be at least 1", kExitUsage);
  auto sizes = parse_count_list(options.sizes);
  if (!sizes) return fail(err, "--sizes: " + sizes.message(), kExitUsage);
  auto base = configure_lesson(options.launch);
  if (!base) return fail(err, base.message(), kExitUsage);
  // Every size is checked before anything runs, so a typo fails at once, not after an hour.
  std::vector<std::unique_ptr<compute::Lesson>> points;
  for (std::uint64_t size : *sizes) {
    auto lesson = configure_lesson(options.launch);
    if (!lesson) return fail(err, lesson.message(), kExitUsage);
    const Status sized = (*lesson)->configure((*base)->values_for_size(size));
    if (!sized)
      return fail(err, "--sizes: " + std::to_string(size) + ": " + sized.message(), kExitUsage);
    (*lesson)->set_repeats(options.repeats);
    (*lesson)->set_time_cpu(options.cpu);
    points.push_back(std::move(*lesson));
  }
  auto preference = interop::parse_backend_preference(options.launch.backend);
  if (!preference) return fail(err, "--backend: " + preference.message(), kExitUsage);
  auto choice = interop::choose_backend(*preference, false);
  if (!choice) return fail(err, choice.message(), kExitFailure);
  const std::string backend = choice->device->is_gpu() ? "cuda" : "emulator";
  const std::string id((*base)->info().id);

  std::vector<BenchRow> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uint64_t size = (*sizes)[i];
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
