// `threadlab lab ...`: the Kernel Lab for people who prefer their own editor, and for teachers who
// grade a class's submissions; and `threadlab worker`, the process that runs learners' kernels.
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "core/backend_name.hpp"
#include "core/format.hpp"
#include "core/launch_config.hpp"
#include "core/user_files.hpp"
#include "grade_report.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/lab_check.hpp"
#include "lab/verdict_summary.hpp"
#include "lab/worker/lab_worker.hpp"
#include "lab_memory_table.hpp"

namespace tl::cli {

// The submission's bytes. A missing file and one the user may not read are told apart (EACCES is
// not "no such file"), and only a regular file of at most 1 MiB is read (a FIFO would block).
Result<std::string> read_submission(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return Error{ErrorKind::kIoError,
                 errno == ENOENT ? path + ": no such file" : path + ": " + std::strerror(errno)};
  }
  if (!S_ISREG(info.st_mode)) return Error{ErrorKind::kIoError, path + ": not a regular file"};
  if (info.st_size > (1 << 20)) return Error{ErrorKind::kIoError, path + ": over 1 MiB"};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Error{ErrorKind::kIoError, path + ": " + std::strerror(errno)};
  std::string source;
  char chunk[65536];
  for (;;) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      return Error{ErrorKind::kIoError, path + ": could not be read: " + reason};
    }
    if (got == 0) break;
    source.append(chunk, static_cast<std::size_t>(got));
    if (source.size() > (1u << 20)) {
      ::close(fd);
      return Error{ErrorKind::kIoError, path + ": over 1 MiB"};
    }
  }
  ::close(fd);
  return source;
}

namespace {

using nlohmann::json;

// The Lab's backends among every command's (core/backend_name.hpp): it draws no traces through
// interop, so gpu-copy, which differs from gpu only there, is refused rather than taken as gpu.
Result<BackendName> lab_backend_name(const std::string& name) {
  auto parsed = parse_backend_name(name);
  if (!parsed) return Error{ErrorKind::kInvalidArgument, "--backend must be auto, gpu or emulator"};
  if (*parsed == BackendName::kGpuCopy) {
    return Error{ErrorKind::kInvalidArgument,
                 "--backend must be auto, gpu or emulator: the Lab draws no traces through "
                 "OpenGL, so it has no gpu-copy"};
  }
  return *parsed;
}

// "auto" is the GPU where the driver finds one, else the emulator.
Result<lab::LabBackend> backend_named(const std::string& name) {
  auto parsed = lab_backend_name(name);
  if (!parsed) return parsed.error();
  if (*parsed == BackendName::kGpu) return lab::LabBackend::kGpu;
  if (*parsed == BackendName::kEmulator) return lab::LabBackend::kEmulator;
  Result<const lab::CudaDriver*> driver = lab::CudaDriver::load();
  int count = 0;
  if (driver && (*driver)->init(0) == 0 && (*driver)->device_get_count(&count) == 0 && count > 0) {
    return lab::LabBackend::kGpu;
  }
  return lab::LabBackend::kEmulator;
}

// The command line's options as the Lab's, every value checked; the backend is left to the caller
// (resolving "auto" loads the CUDA driver, which a check of the command line must not do).
Result<lab::LabOptions> parse_lab_options(const lab::Exercise& exercise,
                                          const LabCheckOptions& options) {
  if (auto backend = lab_backend_name(options.backend); !backend) return backend.error();
  // CLI11 checks the range as it parses; repeated here so that the options struct alone is enough.
  if (options.timeout_ms < 1 || options.timeout_ms > 600000) {
    return invalid_argument("--timeout-ms must be between 1 and 600000 (10 minutes), not " +
                            std::to_string(options.timeout_ms));
  }
  if (options.max_checks < 0) {
    return invalid_argument(
        "--max-checks must be 0 (check until Ctrl+C) or a positive count, not " +
        std::to_string(options.max_checks));
  }
  lab::LabOptions lab;
  lab.seed = options.seed;
  lab.timeout = std::chrono::milliseconds(options.timeout_ms);
  lab.compare_with_solution = options.compare;
  lab.timed_repeats = options.compare || options.time ? 5 : 0;
  if (!options.block.empty()) {
    Result<Dim3> block = parse_dim3(options.block);
    if (!block) return block.error();
    if (Status valid = lab::validate_block(exercise, *block); !valid) return valid.error();
    lab.block = *block;
  }
  if (!options.grid.empty()) {
    Result<Dim3> grid = parse_dim3(options.grid);
    if (!grid) return grid.error();
    if (Status valid = lab::validate_grid(*grid); !valid) return valid.error();
    lab.grid = *grid;
  }
  lab.run_only = options.run_only;
  lab.inspect_compiled = options.compiler_feedback && !options.run_only;
  lab.record_memory = options.memory;
  lab.sandbox = options.sandbox;
  return lab;
}

Result<lab::LabOptions> lab_options(const lab::Exercise& exercise, const LabCheckOptions& options) {
  Result<lab::LabOptions> lab = parse_lab_options(exercise, options);
  if (!lab) return lab.error();
  Result<lab::LabBackend> backend = backend_named(options.backend);
  if (!backend) return backend.error();
  lab->backend = *backend;
  return lab;
}

// The compiler's word on a passing kernel: null where it was not asked for.
json compiled_json(const lab::CheckVerdict& verdict) {
  if (!verdict.compiled) return nullptr;
  const lab::CompiledFeedback& c = *verdict.compiled;
  if (!c.unavailable.empty()) return {{"arch", c.arch}, {"unavailable", c.unavailable}};
  json out = {{"arch", c.arch},
              {"registers", c.registers},
              {"spill_store_bytes", c.spill_store_bytes},
              {"spill_load_bytes", c.spill_load_bytes},
              {"spill_lines", c.spill_lines},
              {"warnings", c.warnings}};
  if (c.occupancy) {
    out["occupancy"] = {{"gpu", c.occupancy_gpu},
                        {"block_threads", c.occupancy->block_threads},
                        {"fraction", c.occupancy->fraction()},
                        {"limit", std::string(to_string(c.occupancy->limit))}};
  }
  return out;
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
          {"compiled", compiled_json(verdict)},
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
  if (verdict.compiled) {
    const lab::CompiledFeedback& c = *verdict.compiled;
    if (!c.unavailable.empty()) {
      out << "compiled: no word on spills or occupancy: " << c.unavailable << "\n";
    } else if (c.warnings.empty()) {
      out << "compiled: " << c.registers << " registers a thread, no spills (" << c.arch
          << ", NVRTC; `threadlab lab inspect` shows more)\n";
    }
    for (const std::string& warning : c.warnings) out << "warning: " << warning << "\n";
  }
  if (verdict.memory) {
    if (!verdict.memory->unavailable.empty()) {
      out << "memory: not recorded: " << verdict.memory->unavailable << "\n";
    }
    for (const lab::MemoryNote& note : verdict.memory->notes) out << "note: " << note.text << "\n";
    for (const lab::LoadBudgetNote& budget : verdict.memory->budgets) {
      out << "note: " << budget.text << "\n";
    }
  }
}

Result<const lab::Exercise*> exercise_named(const std::string& id) {
  const lab::Exercise* exercise = lab::find_exercise(id);
  if (exercise == nullptr) {
    return invalid_argument("no exercise '" + id + "' (threadlab lab list shows them)");
  }
  return exercise;
}

const lab::Exercise* exercise_or_fail(const std::string& id, std::ostream& err) {
  Result<const lab::Exercise*> exercise = exercise_named(id);
  if (!exercise) {
    fail(err, exercise.message(), kExitUsage);
    return nullptr;
  }
  return *exercise;
}

}  // namespace

Status check_lab_list_options(const std::string& format) {
  if (format != "text" && format != "json")
    return invalid_argument("--format must be text or json");
  return Status::ok();
}

Status check_lab_print_options(const std::string& id) {
  Result<const lab::Exercise*> exercise = exercise_named(id);
  if (!exercise) return exercise.error();
  return Status::ok();
}

Status check_lab_options(const LabCheckOptions& options, LabCommand command) {
  Result<const lab::Exercise*> exercise = exercise_named(options.exercise);
  if (!exercise) return exercise.error();
  switch (command) {
    case LabCommand::kRun:
    case LabCommand::kCheck: {
      const bool format_known =
          options.format == "text" || options.format == "json" ||
          (options.memory && (options.format == "table" || options.format == "csv"));
      if (!format_known) {
        return invalid_argument(options.memory
                                    ? "--format must be table, csv or json"
                                    : "--format must be text or json (table and csv go with "
                                      "--memory)");
      }
      break;
    }
    case LabCommand::kWatch:
      if (options.format != "text") return invalid_argument("--format: lab watch prints text");
      break;
    case LabCommand::kGrade: {
      Result<GradeFormat> format = grade_format_named(options.format);
      if (!format) return format.error();
      if (options.resume && options.output.empty()) {
        return invalid_argument("--resume continues the report of --output FILE: give it");
      }
      if (options.resume && *format != GradeFormat::kCsv && *format != GradeFormat::kJson) {
        return invalid_argument("--resume reads a csv or json report: use --format csv or json");
      }
      break;
    }
  }
  Result<lab::LabOptions> lab = parse_lab_options(**exercise, options);
  if (!lab) return lab.error();
  return Status::ok();
}

int command_lab_list(const std::string& format, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_lab_list_options(format); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
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
  // The options first: a bad --grid is a bad command line whatever the file holds.
  if (const Status checked =
          check_lab_options(options, options.run_only ? LabCommand::kRun : LabCommand::kCheck);
      !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  const lab::Exercise* exercise = exercise_or_fail(options.exercise, err);
  if (exercise == nullptr) return kExitUsage;
  // The backend resolved ("auto": is there a GPU?); its name was checked above.
  Result<lab::LabOptions> lab = lab_options(*exercise, options);
  if (!lab) return fail(err, lab.error().message, kExitUsage);
  lab->source_name = std::filesystem::path(options.file).filename().string();
  Result<std::string> source = read_submission(options.file);
  if (!source) return fail(err, source.error().message, kExitUsage);
  const lab::CheckVerdict verdict = lab::check_submission(*exercise, *source, *lab);
  if (options.format == "json") {
    json document = verdict_json(*exercise, options.file, verdict);
    if (options.memory) {
      document["memory"] = verdict.memory ? memory_json(*exercise, *source, *verdict.memory)
                                          : json{{"unavailable",
                                                  "recorded only for a kernel "
                                                  "that passes"}};
    }
    out << document.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else if (options.format == "csv") {
    // The table alone on stdout, for a spreadsheet; the verdict on stderr.
    std::ostringstream verdict_text;
    print_verdict(*exercise, verdict, verdict_text);
    err << verdict_text.str();
    if (verdict.memory && verdict.memory->unavailable.empty()) {
      print_memory_csv(*exercise, *source, *verdict.memory, out);
    }
  } else {
    print_verdict(*exercise, verdict, out);
    if (verdict.memory && verdict.memory->unavailable.empty()) {
      out << "\n";
      print_memory_table(*exercise, *source, *verdict.memory, out);
    } else if (options.memory && verdict.outcome != lab::Outcome::kPassed) {
      out << "memory: recorded only for a kernel that passes\n";
    }
  }
  if (verdict.outcome != lab::Outcome::kPassed) {
    // A reason that names the file already ("b.cu line 1: not UTF-8") is not prefixed twice.
    const bool named = verdict.reason.starts_with(lab->source_name + " ");
    fail(err, named ? verdict.reason : options.file + ": " + verdict.reason, kExitOk);
  }
  return exit_status(verdict.outcome);
}

int command_lab_watch(const LabCheckOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_lab_options(options, LabCommand::kWatch); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  const lab::Exercise* exercise = exercise_or_fail(options.exercise, err);
  if (exercise == nullptr) return kExitUsage;
  // A path that is not there is most often a typo: said at once, rather than waited on in silence
  // for a save that never comes. --wait is for a file the editor has not created yet.
  struct stat info {};
  const bool exists = ::stat(options.file.c_str(), &info) == 0;
  if (!exists && (errno != ENOENT || !options.wait)) {
    const std::string why = errno == ENOENT ? "no such file (save it first, or pass --wait to "
                                              "wait for it to be created)"
                                            : std::strerror(errno);
    return fail(err, options.file + ": " + why, kExitUsage);
  }
  if (exists && !S_ISREG(info.st_mode)) {
    return fail(err, options.file + ": not a regular file", kExitUsage);
  }
  Result<lab::LabOptions> lab = lab_options(*exercise, options);
  if (!lab) return fail(err, lab.error().message, kExitUsage);
  lab->source_name = std::filesystem::path(options.file).filename().string();
  out << (exists ? "watching " : "waiting for ") << options.file << " for " << exercise->id
      << " (Ctrl+C stops)\n"
      << std::flush;
  std::filesystem::file_time_type seen{};
  for (int checks = 0; options.max_checks <= 0 || checks < options.max_checks;) {
    std::error_code error;
    // Absent for a moment while an editor replaces the file: the next look finds it again.
    const auto written = std::filesystem::last_write_time(options.file, error);
    if (!error && written != seen) {
      seen = written;
      ++checks;
      if (Result<std::string> source = read_submission(options.file); source) {
        print_verdict(*exercise, lab::check_submission(*exercise, *source, *lab), out);
      } else {
        out << one_line(source.error().message) << "\n";
      }
      out << std::flush;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return kExitOk;
}

namespace {

// One entry of the graded folder: a file to grade, or why it is skipped.
struct FolderEntry {
  std::filesystem::path path;
  std::string name;
  std::string skipped;  // empty: graded
};

bool has_cu_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".cu";
}

// Every entry of the folder, each graded or skipped with its reason; links are resolved without
// following a loop and never lead out of the folder (a "submission" linked to /etc/passwd or
// /dev/zero is not one). Nothing here throws: a folder the user may not read is an error value.
Result<std::vector<FolderEntry>> folder_entries(const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path root = fs::canonical(folder, error);
  if (error) return Error{ErrorKind::kIoError, folder.string() + ": " + error.message()};
  fs::directory_iterator it(folder, error);
  if (error) return Error{ErrorKind::kIoError, folder.string() + ": " + error.message()};
  std::vector<FolderEntry> entries;
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) return Error{ErrorKind::kIoError, folder.string() + ": " + error.message()};
    FolderEntry entry;
    entry.path = it->path();
    entry.name = entry.path.filename().string();
    const fs::file_status own = it->symlink_status(error);
    if (error) {
      entry.skipped = "could not be examined: " + error.message();
    } else if (fs::is_symlink(own)) {
      const fs::path target = fs::canonical(entry.path, error);
      if (error) {
        entry.skipped = error.value() == ELOOP ? "a symbolic link loop" : "a dangling link";
      } else if (auto [end, _] =
                     std::mismatch(root.begin(), root.end(), target.begin(), target.end());
                 end != root.end()) {
        entry.skipped = "a link out of the folder (not followed)";
      } else if (fs::is_directory(target, error)) {
        entry.skipped = "a link to a directory (not followed)";
      } else if (!fs::is_regular_file(target, error)) {
        entry.skipped = "a link to something that is not a regular file";
      } else if (!has_cu_extension(target) && !has_cu_extension(entry.path)) {
        entry.skipped = "not a .cu file";
      } else {
        entry.path = target;
      }
    } else if (fs::is_directory(own)) {
      entry.skipped = "a subfolder (only the folder's own files are graded)";
    } else if (fs::is_fifo(own)) {
      entry.skipped = "a FIFO, not a regular file";
    } else if (!fs::is_regular_file(own)) {
      entry.skipped = "not a regular file";
    } else if (!has_cu_extension(entry.path)) {
      entry.skipped = "not a .cu file";
    }
    entries.push_back(std::move(entry));
  }
  // A failed step ends the iteration as if the folder had ended: say so instead of grading part.
  if (error) return Error{ErrorKind::kIoError, folder.string() + ": " + error.message()};
  std::sort(entries.begin(), entries.end(),
            [](const FolderEntry& a, const FolderEntry& b) { return a.name < b.name; });
  return entries;
}

// The grader's outcome: a kernel that never finished, or killed its worker, is not a wrong one.
std::string grade_outcome(const lab::CheckVerdict& verdict) {
  if (verdict.outcome == lab::Outcome::kFailed && verdict.timed_out) return "timeout";
  if (verdict.outcome == lab::Outcome::kFailed && verdict.crashed) return "crashed";
  return lab::to_string(verdict.outcome);
}

// A graded (or skipped) file's row of the report.
GradeRow grade_row(const lab::Exercise& exercise, const std::string& name,
                   const lab::CheckVerdict& verdict) {
  GradeRow row;
  row.file = name;
  row.outcome = grade_outcome(verdict);
  for (const lab::CaseResult& c : verdict.cases) {
    row.cases.push_back({c.label, c.passed, c.message});
    if (c.passed) ++row.passed_checks;
  }
  row.checks = static_cast<int>(verdict.cases.size());
  row.kernel_ms = verdict.kernel_ms;
  row.seconds = verdict.seconds;
  row.reason = verdict.reason;
  row.detail = verdict_json(exercise, name, verdict);
  return row;
}

GradeRow plain_row(const lab::Exercise& exercise, const std::string& name,
                   const std::string& outcome, const std::string& reason) {
  GradeRow row;
  row.file = name;
  row.outcome = outcome;
  row.reason = reason;
  row.detail = json{{"exercise", exercise.id}, {"file", name}, {"reason", reason}};
  return row;
}

}  // namespace

int command_lab_grade(const LabCheckOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_lab_options(options, LabCommand::kGrade); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  const lab::Exercise* exercise = exercise_or_fail(options.exercise, err);
  if (exercise == nullptr) return kExitUsage;
  const Result<GradeFormat> format = grade_format_named(options.format);  // checked above
  if (!format) return fail(err, format.error().message, kExitUsage);
  std::error_code error;
  if (!std::filesystem::is_directory(options.file, error)) {
    return fail(err,
                options.file + (error && error != std::errc::no_such_file_or_directory
                                    ? ": " + error.message()
                                    : ": not a folder"),
                kExitUsage);
  }
  Result<lab::LabOptions> lab = lab_options(*exercise, options);
  if (!lab) return fail(err, lab.error().message, kExitUsage);
  lab->compare_with_solution = false;  // one reference time is enough: measured once below
  // Others' code: no submission may plant a compiled kernel that another would load.
  lab->private_cache = true;
  Result<std::vector<FolderEntry>> entries = folder_entries(options.file);
  if (!entries) return fail(err, entries.error().message, kExitFailure);
  const auto graded_count =
      std::count_if(entries->begin(), entries->end(),
                    [](const FolderEntry& entry) { return entry.skipped.empty(); });
  if (graded_count == 0) {
    for (const FolderEntry& entry : *entries) {
      // A file name may hold a newline or a terminal escape: each entry stays one plain line.
      err << "skipped " << one_line(entry.name) << ": " << entry.skipped << "\n";
    }
    return fail(err, options.file + ": no .cu files to grade", kExitUsage);
  }

  // Every entry has its row from the start: skipped ones with why, the rest pending until graded
  // (or taken from the report a stopped run left, with --resume).
  std::vector<GradeRow> rows;
  for (const FolderEntry& entry : *entries) {
    rows.push_back(entry.skipped.empty()
                       ? plain_row(*exercise, entry.name, "pending",
                                   "not graded yet (the run stopped before it)")
                       : plain_row(*exercise, entry.name, "skipped", entry.skipped));
  }
  std::size_t resumed = 0;
  if (options.resume && std::filesystem::exists(options.output, error)) {
    Result<std::string> previous = read_submission(options.output);
    if (!previous) return fail(err, previous.error().message, kExitFailure);
    Result<std::vector<GradeRow>> earlier = read_grade_report(*format, *previous);
    if (!earlier) {
      return fail(err, options.output + ": " + earlier.error().message, kExitFailure);
    }
    for (GradeRow& row : rows) {
      if (row.outcome != "pending") continue;
      for (const GradeRow& before : *earlier) {
        if (before.file == row.file && grade_row_is_final(before)) {
          row = before;
          ++resumed;
          break;
        }
      }
    }
  }

  // Nothing of this process may be read or traced by another of the person's processes (a
  // submission that escaped would be one), ptrace and /proc/PID/mem included.
  ::prctl(PR_SET_DUMPABLE, 0);
  if (lab->sandbox) {
    Result<lab::SandboxReply> sandbox = lab::lab_sandbox_layers(*lab);
    if (!sandbox) {
      return fail(err,
                  "cannot start the Lab's sandboxed worker: " + sandbox.error().message +
                      "; grading others' code needs it (--unsafe-no-sandbox runs it with your "
                      "rights)",
                  kExitFailure);
    }
    if (!sandbox->isolates) {
      return fail(err,
                  "the Lab's sandbox does not isolate a submission on this machine (" +
                      sandbox->layers +
                      "): grading would run others' code with your rights; pass "
                      "--unsafe-no-sandbox to grade anyway",
                  kExitFailure);
    }
    err << "sandbox: " << sandbox->layers << "\n";
  } else {
    err << "sandbox: none (--unsafe-no-sandbox): the submissions run with your rights\n";
  }

  // The report on disk is whole after every row (written atomically); on stdout, CSV and JSON
  // rows are written as they are decided, Gradescope and JUnit documents at the end.
  const auto save_report = [&]() -> Status {
    if (options.output.empty()) return Status::ok();
    return write_file_atomically(options.output, render_grade_report(*format, exercise->id, rows));
  };
  if (Status saved = save_report(); !saved) {
    return fail(err, "cannot write the report: " + saved.message(), kExitFailure);
  }
  const bool stream =
      options.output.empty() && (*format == GradeFormat::kCsv || *format == GradeFormat::kJson);
  std::size_t streamed = 0;
  const auto stream_row = [&](const GradeRow& row) {
    if (!stream) return;
    if (*format == GradeFormat::kCsv) {
      if (streamed == 0) out << render_grade_report(*format, exercise->id, {});
      out << grade_csv_row(row);
    } else {
      json item = row.detail.is_object() ? row.detail : json::object();
      item["outcome"] = row.outcome;
      item["passed_checks"] = row.passed_checks;
      out << (streamed == 0 ? "[\n" : ",\n")
          << item.dump(2, ' ', false, json::error_handler_t::replace);
    }
    out << std::flush;
    ++streamed;
  };

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  const auto to_grade = static_cast<std::size_t>(graded_count) - resumed;
  std::size_t graded = 0;
  std::size_t skipped = 0;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const FolderEntry& entry = (*entries)[i];
    if (rows[i].outcome != "pending") {
      if (rows[i].outcome == "skipped") ++skipped;
      stream_row(rows[i]);
      continue;
    }
    // The progress bar goes to stderr, so that the table on stdout stays clean for a file.
    const int done = static_cast<int>(30 * graded / std::max<std::size_t>(to_grade, 1));
    err << (terminal ? "\r" : "") << "grading [" << std::string(done, '#')
        << std::string(30 - done, '.') << "] " << graded + 1 << "/" << to_grade << " "
        << one_line(entry.name) << (terminal ? "\033[K" : "\n") << std::flush;
    ++graded;
    Result<std::string> source = read_submission(entry.path.string());
    if (!source) {
      std::string reason = source.error().message;
      if (reason.starts_with(entry.path.string())) {
        reason = entry.name + reason.substr(entry.path.string().size());
      }
      rows[i] = plain_row(*exercise, entry.name, "unreadable", reason);
    } else {
      lab::CheckVerdict verdict;
      lab->source_name = entry.name;
      // One file must never end the run: whatever escapes the check becomes this file's row.
      try {
        verdict = lab::check_submission(*exercise, *source, *lab);
      } catch (const std::exception& e) {
        verdict = lab::CheckVerdict{};
        verdict.outcome = lab::Outcome::kUnavailable;
        verdict.reason = std::string("the grader could not check this file: ") + e.what();
      }
      rows[i] = grade_row(*exercise, entry.name, verdict);
    }
    stream_row(rows[i]);
    if (Status saved = save_report(); !saved) {
      return fail(err, "cannot write the report: " + saved.message(), kExitFailure);
    }
  }
  if (stream && *format == GradeFormat::kJson) out << (streamed == 0 ? "[]\n" : "\n]\n");
  if (!stream && options.output.empty()) {
    out << render_grade_report(*format, exercise->id, rows);
  }
  out << std::flush;
  if (!out) return fail(err, "cannot write the report to standard output", kExitFailure);
  err << (terminal ? "\r\033[K" : "") << "graded " << graded << " files";
  if (resumed > 0) err << ", " << resumed << " kept from " << options.output;
  if (skipped > 0) err << ", skipped " << skipped << " (their rows say why)";
  if (!options.output.empty()) err << "; report: " << options.output;
  err << "\n";
  return kExitOk;
}

int command_worker(const std::vector<std::string>& args) {
  // Started by hand (no pipes on 3 and 4), it would read nothing and exit 0 as if it had worked.
  if (::fcntl(3, F_GETFD) < 0 || ::fcntl(4, F_GETFD) < 0) {
    return fail(std::cerr,
                "worker is for the Kernel Lab's internal use (it reads requests on descriptor 3 "
                "and replies on 4); to check a kernel, run threadlab lab check",
                kExitUsage);
  }
  lab::SandboxLayers layers;
  if (std::find(args.begin(), args.end(), "--sandbox") != args.end()) {
    // First, while this process has one thread: everything after runs inside the sandbox.
    lab::SandboxEntry entry = lab::enter_sandbox(lab::sandbox_policy_from_arguments(args));
    if (!entry.is_worker) return entry.relay_status;
    layers = std::move(entry.layers);
  } else {
    layers.missing.emplace_back("started with --unsafe-no-sandbox");
  }
  return lab::run_lab_worker(3, 4, layers);
}

}  // namespace tl::cli
