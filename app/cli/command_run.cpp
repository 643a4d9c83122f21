// `threadlab run`: one launch, its timings, the check and optionally the trace as CSV.

#include <fstream>

#include "commands.hpp"
#include "compute/ceilings.hpp"
#include "compute/hardware_counters.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "compute/trace_sink.hpp"
#include "core/format.hpp"
#include "core/trace.hpp"
#include "core/user_files.hpp"
#include "counters_table.hpp"
#include "interop/backend_selection.hpp"
#include "lab/lesson_memory.hpp"
#include "launch_request.hpp"
#include "timing_table.hpp"

namespace tl::cli {
namespace {

std::string backend_label(const compute::Device& device) {
  return device.is_gpu() ? "CUDA on " + device.info().name : "the CPU emulator";
}

// `run --memory-table --counters` on a GPU: each recorded kernel's figures beside the counters
// CUPTI reads over the same kernel. On stdout after a table; on stderr beside a CSV or JSON
// document, which stdout holds alone. Where counters cannot be read, one line says why.
void print_memory_beside_counters(compute::Lesson& lesson, compute::Device& device,
                                  const std::vector<lab::LessonKernelMemory>& kernels,
                                  std::ostream& notes) {
  compute::CountingLesson* counting = compute::counting_lesson(lesson);
  if (counting == nullptr) {
    notes << "hardware counters: " << lesson.info().id
          << " does not count its kernels (lessons 2d-blocks, matmul and reductions do)\n";
    return;
  }
  auto counted = counting->run_counted(device);
  if (!counted) {
    const bool says_what = counted.message().starts_with("hardware counters");
    notes << (says_what ? "" : "hardware counters not read: ") << counted.message() << '\n';
    return;
  }
  notes << "\nmeasured on the GPU (CUPTI, the whole grid) beside the model:\n";
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const CountedKernel* found = nullptr;
    for (const CountedKernel& k : *counted) {
      if (!kernels[i].counted_key.empty() && k.key == kernels[i].counted_key) found = &k;
    }
    if (found == nullptr || !found->counters.memory.measured) {
      notes << "  " << kernels[i].label << ": not counted at these settings\n";
      continue;
    }
    notes << "  "
          << lab::memory_beside_counters(kernels[i].label,
                                         lab::model_grid_counters(kernels[i].table),
                                         found->counters.memory, device.info().name)
          << '\n';
  }
}

// `run --memory-table`: the lesson's kernels at its current settings, recorded on the emulator
// whatever the backend (the figures are the model's, not a measurement), one table for all of them.
int print_memory(compute::Lesson& lesson, const std::string& format_text, compute::Device& device,
                 bool counters, std::ostream& out, std::ostream& err) {
  auto format = lab::parse_memory_report_format(format_text);
  if (!format) return fail(err, format.message(), kExitUsage);
  const compute::MemoryLesson* recording = compute::memory_lesson(lesson);
  if (recording == nullptr) {
    return fail(err,
                "--memory-table: " + std::string(lesson.info().id) +
                    " does not record its kernels' memory accesses (vector-add, 2d-blocks, "
                    "matmul and reductions do)",
                kExitUsage);
  }
  std::vector<lab::LessonKernelMemory> kernels;
  for (const memory::MemoryExperiment& experiment : recording->memory_experiments()) {
    auto recorded = lab::record_lesson_kernel(experiment);
    if (!recorded) return fail(err, "--memory-table: " + recorded.message(), kExitFailure);
    kernels.push_back(std::move(*recorded));
  }
  out << lab::memory_report(kernels, *format);
  if (counters) {
    print_memory_beside_counters(lesson, device, kernels,
                                 *format == lab::MemoryReportFormat::kTable ? out : err);
  }
  return kExitOk;
}

}  // namespace

Status check_run_options(const RunOptions& options) {
  TL_RETURN_IF_ERROR(check_repeats(options.repeats));
  if (options.memory) {
    auto format = lab::parse_memory_report_format(options.memory_format);
    if (!format) return invalid_argument(format.message());
  }
  TL_RETURN_IF_ERROR(check_backend_name(options.launch.backend));
  auto lesson = configure_lesson(options.launch);
  if (!lesson) return lesson.error();
  return Status::ok();
}

int command_run(const RunOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_run_options(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  // With --memory-table stdout is the table alone (a CSV or JSON document): the session's notes go
  // to stderr.
  auto session = open_launch(options.launch, nullptr, options.memory ? err : out);
  if (!session) return fail(err, session.message(), open_launch_exit_status(session.error()));
  compute::Lesson& lesson = *(*session)->lesson();
  if (options.memory) {
    return print_memory(lesson, options.memory_format, (*session)->device(), options.counters, out,
                        err);
  }
  const DataShape shape = lesson.data_shape();
  const LaunchConfig config = lesson.launch_config();
  // A trace CSV holds one row per element, as many as the window's picture shows at most (past
  // that it would be gigabytes nobody opens): the session says whether this launch is one.
  if (!options.trace_path.empty() && !(*session)->admit().timed_only.empty()) {
    constexpr std::uint64_t kMaxRows = interop::kMaxTracedElements;
    return fail(err,
                "--trace is limited to " + format_power_of_two(kMaxRows) + " elements (" +
                    format_count(kMaxRows) + " rows)",
                kExitUsage);
  }
  compute::Device& device = (*session)->device();
  lesson.set_repeats(options.repeats);

  // An invalid configuration is launched anyway: CUDA's own error is part of the lesson. If it
  // fails, the one line says both what CUDA said and why (the session explains it). A kernel that
  // could outlast a display's watchdog is refused before it can freeze the desktop.
  auto report = (*session)->time(lesson);
  if (!report) return fail(err, report.message(), kExitFailure);
  const std::string id(lesson.info().id);
  // On a GPU every kernel is read against what this device does at best, measured once and cached
  // (about a second the first time), after the lesson's own timings so they do not share the GPU.
  std::optional<DeviceCeilings> ceilings;
  if (device.is_gpu()) {
    std::string warning;
    auto measured = compute::cached_ceilings(device, default_ceilings_cache_path(), warning);
    if (measured) ceilings = std::move(*measured);
    if (!measured)
      err << "note: no shares of the device's ceilings: " << measured.message() << '\n';
  }
  print_run_report(out, id, {shape, config, std::nullopt, {}}, *report, backend_label(device),
                   ceilings ? &*ceilings : nullptr, &lesson);

  // After the timed runs and never inside them: CUPTI replays each counted kernel.
  std::vector<CountedKernel> counted;
  if (options.counters) {
    compute::CountingLesson* counting = compute::counting_lesson(lesson);
    if (counting == nullptr) {
      out << "  hardware counters: " << id
          << " does not count its kernels (lessons 2d-blocks, matmul and reductions do)\n";
    } else if (auto read = counting->run_counted(device); !read) {
      // Not a failed run: the device or the user may not allow counters; say why.
      const bool says_what = read.message().starts_with("hardware counters");
      out << "  " << (says_what ? "" : "hardware counters not read: ") << read.message() << '\n';
    } else {
      counted = std::move(*read);
      print_counters(out, counted);
    }
  }

  if (!options.export_prefix.empty()) {
    std::vector<compute::LessonExport> exports =
        report->attachment ? report->attachment->exports() : std::vector<compute::LessonExport>{};
    if (!counted.empty()) {
      exports.push_back({"counters.csv", counters_csv(counted)});
      exports.push_back({"counters.json", counters_json(counted)});
    }
    if (exports.empty()) {
      err << "note: --export: " << id << " has no results of its own to export\n";
    }
    for (const compute::LessonExport& e : exports) {
      const std::string path = options.export_prefix + "." + e.suffix;
      const Status written = write_output_file(path, e.contents);
      if (!written) return fail(err, written.message(), kExitFailure);
      out << "  exported: " << path << '\n';
    }
  }

  bool check_failed = false;
  if (options.check) {
    if (report->check) {
      out << "  " << report->check->description << '\n';
      check_failed = !report->check->passed;
    } else {
      out << "  no check: this run has no output to compare\n";
    }
  }

  if (!options.trace_path.empty()) {
    auto traced = (*session)->trace();
    if (!traced) return fail(err, "traced launch: " + traced.message(), kExitFailure);
    // Streamed, not built in memory: a trace may have 2^24 rows. The close is checked too, since a
    // full disk may show only when the last buffer is flushed.
    std::ofstream file(options.trace_path);
    if (!file) return fail(err, "cannot write " + options.trace_path, kExitFailure);
    const Status written = write_trace_csv(file, (*session)->host_records(), traced->launch.shape,
                                           traced->launch.config);
    if (!written) return fail(err, options.trace_path + ": " + written.message(), kExitFailure);
    file.close();
    if (!file) {
      return fail(err, options.trace_path + ": writing the trace CSV failed (disk full?)",
                  kExitFailure);
    }
    out << "  trace: " << options.trace_path << " ("
        << describe_counts(traced->launch.shape.elements(), traced->counts) << ")\n";
  }
  // Every failure ends in one line on stderr; the trace above is still written, since it shows why.
  if (check_failed) return fail(err, report->check->description, kExitFailure);
  return kExitOk;
}

}  // namespace tl::cli
