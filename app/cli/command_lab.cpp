// `threadlab lab ...`: the Kernel Lab for people who prefer their own editor, and for teachers who
// grade a class's submissions; and `threadlab worker`, the process that runs learners' kernels.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "core/launch_config.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/lab_check.hpp"
#include "lab/verdict_summary.hpp"
#include "lab/worker/lab_worker.hpp"

namespace tl::cli {
namespace {

using nlohmann::json;

Result<std::string> read_source(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return Error{ErrorKind::kIoError, path + ": no such file"};
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return Error{ErrorKind::kIoError, path + ": could not be read"};
  const std::string source = text.str();
  if (source.size() > (1u << 20)) return Error{ErrorKind::kIoError, path + ": over 1 MiB"};
  return source;
}

// "auto" is the GPU where the driver finds one, else the emulator.
Result<lab::LabBackend> backend_named(const std::string& name) {
  if (name == "gpu" || name == "cuda") return lab::LabBackend::kGpu;
  if (name == "emulator") return lab::LabBackend::kEmulator;
  if (name != "auto") {
    return Error{ErrorKind::kInvalidArgument, "--backend must be auto, gpu or emulator"};
  }
  Result<const lab::CudaDriver*> driver = lab::CudaDriver::load();
  int count = 0;
  if (driver && (*driver)->init(0) == 0 && (*driver)->device_get_count(&count) == 0 && count > 0) {
    return lab::LabBackend::kGpu;
  }
  return lab::LabBackend::kEmulator;
}

Result<lab::LabOptions> lab_options(const LabCheckOptions& options) {
  Result<lab::LabBackend> backend = backend_named(options.backend);
  if (!backend) return backend.error();
  lab::LabOptions lab;
  lab.backend = *backend;
  lab.seed = options.seed;
  lab.timeout = std::chrono::milliseconds(options.timeout_ms);
  lab.compare_with_solution = options.compare;
  lab.timed_repeats = options.compare || options.time ? 5 : 0;
  if (!options.block.empty()) {
    Result<Dim3> block = parse_dim3(options.block);
    if (!block) return block.error();
    lab.block = *block;
  }
  if (!options.grid.empty()) {
    Result<Dim3> grid = parse_dim3(options.grid);
    if (!grid) return grid.error();
    lab.grid = *grid;
  }
  lab.run_only = options.run_only;
  return lab;
}

json verdict_json(const lab::Exercise& exercise, const std::string& file,
                  const lab::CheckVerdict& verdict) {
  json cases = json::array();
  for (const lab::CaseResult& c : verdict.cases) {
    cases.push_back({{"case", c.label},
                     {"launch", lab::launch_text(c.launch)},
                     {"passed", c.passed},
                     {"message", c.message}});
  }
  return {{"exercise", exercise.id},
          {"file", file},
          {"mode", verdict.run_only ? "run" : "check"},
          {"outcome", lab::to_string(verdict.outcome)},
          {"reason", verdict.reason},
          {"device", verdict.device},
          {"cases", cases},
          {"kernel_ms", verdict.kernel_ms},
          {"solution_ms", verdict.solution_ms},
          {"library", verdict.library},
          {"library_ms", verdict.library_ms},
          {"moved_bytes", verdict.moved_bytes},
          {"copy_ms", verdict.copy_ms},
          {"copy_ceiling", verdict.copy_ceiling},
          {"flops", verdict.flops},
          {"timed_case", verdict.timed_case},
          {"compiler_log", verdict.compiler_log},
          {"printed", verdict.printed},
          {"seconds", verdict.seconds}};
}

int exit_status(lab::Outcome outcome) {
  switch (outcome) {
    case lab::Outcome::kPassed:
      return kExitOk;
    case lab::Outcome::kCompileError:
      return kExitUsage;
    case lab::Outcome::kFailed:
    case lab::Outcome::kUnavailable:
      return kExitFailure;
  }
  return kExitFailure;
}

void print_verdict(const lab::Exercise& exercise, const lab::CheckVerdict& verdict,
                   std::ostream& out) {
  if (!verdict.compiler_log.empty())
    out << verdict.compiler_log << (verdict.compiler_log.back() == '\n' ? "" : "\n");
  for (const lab::CaseResult& c : verdict.cases) {
    out << (c.passed ? "  pass  " : "  FAIL  ") << c.label << " " << lab::launch_text(c.launch)
        << (c.passed ? "" : ": " + c.message) << "\n";
  }
  if (!verdict.printed.empty()) out << "printed by the kernel:\n" << verdict.printed << "\n";
  // A Run's outcome is its one case's: "passed" would claim the hidden checks.
  const char* outcome = verdict.run_only && verdict.outcome == lab::Outcome::kPassed
                            ? "ran"
                            : lab::to_string(verdict.outcome);
  out << exercise.id << ": " << outcome << " — " << verdict.reason;
  if (!verdict.device.empty()) out << " (" << verdict.device << ")";
  out << "\n";
  for (const lab::TimingLine& line : lab::timing_summary(verdict)) out << line.text << "\n";
}

const lab::Exercise* exercise_or_fail(const std::string& id, std::ostream& err) {
  const lab::Exercise* exercise = lab::find_exercise(id);
  if (exercise == nullptr) {
    fail(err, "no exercise '" + id + "' (threadlab lab list shows them)", kExitUsage);
  }
  return exercise;
}

}  // namespace

int command_lab_list(const std::string& format, std::ostream& out, std::ostream& err) {
  if (format != "text" && format != "json")
    return fail(err, "--format must be text or json", kExitUsage);
  json list = json::array();
  for (const lab::Exercise* e : lab::registered_exercises()) {
    if (format == "json") {
      list.push_back({{"id", e->id}, {"title", e->title}, {"lesson", e->lesson_id}});
    } else {
      out << std::left << std::setw(24) << e->id << std::setw(16) << e->lesson_id << e->title
          << "\n";
    }
  }
  if (format == "json") out << list.dump(2) << "\n";
  return kExitOk;
}

int command_lab_print(const std::string& id, const std::string& what, std::ostream& out,
                      std::ostream& err) {
  const lab::Exercise* exercise = exercise_or_fail(id, err);
  if (exercise == nullptr) return kExitUsage;
  out << (what == "starter"    ? exercise->starter
          : what == "solution" ? exercise->solution
                               : exercise->statement);
  return kExitOk;
}

int command_lab_check(const LabCheckOptions& options, std::ostream& out, std::ostream& err) {
  const lab::Exercise* exercise = exercise_or_fail(options.exercise, err);
  if (exercise == nullptr) return kExitUsage;
  if (options.format != "text" && options.format != "json") {
    return fail(err, "--format must be text or json", kExitUsage);
  }
  // The options first: a bad --grid is a bad command line whatever the file holds.
  Result<lab::LabOptions> lab = lab_options(options);
  if (!lab) return fail(err, lab.error().message, kExitUsage);
  Result<std::string> source = read_source(options.file);
  if (!source) return fail(err, source.error().message, kExitUsage);
  const lab::CheckVerdict verdict = lab::check_submission(*exercise, *source, *lab);
  if (options.format == "json") {
    out << verdict_json(*exercise, options.file, verdict).dump(2) << "\n";
  } else {
    print_verdict(*exercise, verdict, out);
  }
  if (verdict.outcome != lab::Outcome::kPassed) {
    err << "threadlab: " << options.file << ": " << verdict.reason << "\n";
  }
  return exit_status(verdict.outcome);
}

int command_lab_watch(const LabCheckOptions& options, std::ostream& out, std::ostream& err) {
  const lab::Exercise* exercise = exercise_or_fail(options.exercise, err);
  if (exercise == nullptr) return kExitUsage;
  Result<lab::LabOptions> lab = lab_options(options);
  if (!lab) return fail(err, lab.error().message, kExitUsage);
  out << "watching " << options.file << " for " << exercise->id << " (Ctrl+C stops)\n";
  std::filesystem::file_time_type seen{};
  for (int checks = 0; options.max_checks <= 0 || checks < options.max_checks;) {
    std::error_code error;
    const auto written = std::filesystem::last_write_time(options.file, error);
    if (!error && written != seen) {
      seen = written;
      ++checks;
      if (Result<std::string> source = read_source(options.file); source) {
        print_verdict(*exercise, lab::check_submission(*exercise, *source, *lab), out);
      } else {
        out << source.error().message << "\n";
      }
      out << std::flush;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return kExitOk;
}

int command_lab_grade(const LabCheckOptions& options, std::ostream& out, std::ostream& err) {
  const lab::Exercise* exercise = exercise_or_fail(options.exercise, err);
  if (exercise == nullptr) return kExitUsage;
  if (options.format != "csv" && options.format != "json") {
    return fail(err, "--format must be csv or json", kExitUsage);
  }
  std::error_code error;
  if (!std::filesystem::is_directory(options.file, error)) {
    return fail(err, options.file + ": not a folder", kExitUsage);
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(options.file, error)) {
    if (entry.is_regular_file() && entry.path().extension() == ".cu") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return fail(err, options.file + ": no .cu files to grade", kExitUsage);
  Result<lab::LabOptions> lab = lab_options(options);
  if (!lab) return fail(err, lab.error().message, kExitUsage);
  lab->compare_with_solution = false;  // one reference time is enough: measured once below

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  json rows = json::array();
  if (options.format == "csv")
    out << "file,outcome,passed_checks,checks,kernel_ms,seconds,reason\n";
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i].filename().string();
    // The progress bar goes to stderr, so that the table on stdout stays clean for a file.
    const int done = static_cast<int>(30 * i / files.size());
    err << (terminal ? "\r" : "") << "grading [" << std::string(done, '#')
        << std::string(30 - done, '.') << "] " << i + 1 << "/" << files.size() << " " << name
        << (terminal ? "\033[K" : "\n") << std::flush;
    lab::CheckVerdict verdict;
    if (Result<std::string> source = read_source(files[i].string()); source) {
      verdict = lab::check_submission(*exercise, *source, *lab);
    } else {
      verdict.outcome = lab::Outcome::kFailed;
      verdict.reason = source.error().message;
    }
    const auto passed = std::count_if(verdict.cases.begin(), verdict.cases.end(),
                                      [](const lab::CaseResult& c) { return c.passed; });
    if (options.format == "csv") {
      std::string reason = verdict.reason;
      std::replace(reason.begin(), reason.end(), '"', '\'');
      std::replace(reason.begin(), reason.end(), '\n', ' ');
      out << '"' << name << "\"," << lab::to_string(verdict.outcome) << "," << passed << ","
          << verdict.cases.size() << "," << verdict.kernel_ms << "," << verdict.seconds << ",\""
          << reason << "\"\n"
          << std::flush;
    } else {
      json row = verdict_json(*exercise, name, verdict);
      row["passed_checks"] = passed;
      rows.push_back(row);
    }
  }
  err << (terminal ? "\r\033[K" : "") << "graded " << files.size() << " files\n";
  if (options.format == "json") out << rows.dump(2) << "\n";
  return kExitOk;
}

int command_worker() {
  return lab::run_lab_worker(3, 4);
}

}  // namespace tl::cli
