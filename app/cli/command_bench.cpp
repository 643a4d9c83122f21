// `threadlab bench`: the CPU-vs-GPU sweep over sizes, as a table, CSV or JSON.

#include "commands.hpp"
#include "compute/lessons/vector_add_runner.hpp"
#include "core/parse.hpp"
#include "interop/backend_selection.hpp"
#include "launch_request.hpp"
#include "timing_table.hpp"

namespace tl::cli {

int command_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  const Status lesson = check_lesson(options.lesson);
  if (!lesson) return fail(err, lesson.message(), kExitUsage);
  if (options.format != "table" && options.format != "csv" && options.format != "json") {
    return fail(err, "--format must be table, csv or json", kExitUsage);
  }
  if (options.repeats < 1) return fail(err, "--repeats must be at least 1", kExitUsage);
  auto sizes = parse_count_list(options.sizes);
  if (!sizes) return fail(err, "--sizes: " + sizes.message(), kExitUsage);
  auto block = parse_dim3(options.block);
  if (!block) return fail(err, "--block: " + block.message(), kExitUsage);
  if (block->y != 1 || block->z != 1)
    return fail(err, "--block: vector add uses a 1D block", kExitUsage);
  if (block->x == 0) return fail(err, "--block: must be at least 1", kExitUsage);
  for (std::uint64_t n : *sizes) {
    const Status valid = lessons::validate_vector_add_size(n, 0);
    if (!valid) return fail(err, "--sizes: " + valid.message(), kExitUsage);
  }
  auto preference = interop::parse_backend_preference(options.backend);
  if (!preference) return fail(err, "--backend: " + preference.message(), kExitUsage);
  auto choice = interop::choose_backend(*preference, false);
  if (!choice) return fail(err, choice.message(), kExitFailure);
  const std::string backend = choice->device->is_gpu() ? "cuda" : "emulator";

  std::vector<BenchRow> rows;
  for (std::uint64_t n : *sizes) {
    compute::VectorAddRequest request;
    request.n = n;
    request.config = lessons::covering_config(n, block->x);
    request.repeats = options.repeats;
    request.time_cpu = options.cpu;
    auto report = compute::run_vector_add(*choice->device, request);
    if (!report)
      return fail(err, "N = " + std::to_string(n) + ": " + report.message(), kExitFailure);
    if (report->check && !report->check->passed) {
      return fail(err, "N = " + std::to_string(n) + ": " + report->check->describe(), kExitFailure);
    }
    rows.push_back({n, request.config, *report});
  }
  if (options.format == "csv") {
    print_bench_csv(out, rows, backend);
  } else if (options.format == "json") {
    print_bench_json(out, rows, backend, choice->device->info().name);
  } else {
    out << "device: " << choice->device->info().name << '\n';
    print_bench_table(out, rows, backend);
  }
  return kExitOk;
}

}  // namespace tl::cli
