#include "core/lab_progress.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/user_files.hpp"

namespace tl {
namespace {

using nlohmann::json;

constexpr const char* kProgressFile = "progress.json";
constexpr const char* kSourceExtension = ".cu";

Result<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{ErrorKind::kIoError, "cannot read " + path.string()};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{ErrorKind::kIoError, "cannot read " + path.string()};
  return text.str();
}

// A number that must be finite and positive to mean a time; anything else is "not measured".
std::optional<double> read_time(const json& entry, const char* name) {
  const auto found = entry.find(name);
  if (found == entry.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!(value > 0) || value > 1e12) return std::nullopt;
  return value;
}

int read_count(const json& entry, const char* name) {
  const auto found = entry.find(name);
  if (found == entry.end() || !found->is_number_integer()) return 0;
  const auto value = found->get<std::int64_t>();
  return value < 0 ? 0 : static_cast<int>(std::min<std::int64_t>(value, 1'000'000'000));
}

}  // namespace

bool is_safe_exercise_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

LabProgressStore::LabProgressStore(std::optional<std::filesystem::path> folder)
    : folder_(std::move(folder)) {}

std::optional<std::filesystem::path> LabProgressStore::default_folder() {
  return user_file("XDG_DATA_HOME", ".local/share", "lab");
}

std::optional<std::filesystem::path> LabProgressStore::source_path(
    std::string_view exercise_id) const {
  if (!folder_ || !is_safe_exercise_id(exercise_id)) return std::nullopt;
  return *folder_ / (std::string(exercise_id) + kSourceExtension);
}

Status LabProgressStore::load() {
  progress_.clear();
  if (!folder_) return Status::ok();
  std::error_code error;
  if (!std::filesystem::is_directory(*folder_, error)) return Status::ok();  // nothing saved yet
  Status status = Status::ok();
  const std::filesystem::path progress_path = *folder_ / kProgressFile;
  if (std::filesystem::exists(progress_path, error)) {
    Result<std::string> text = read_text(progress_path);
    json document;
    std::string problem;
    if (!text) {
      problem = text.message();
    } else {
      document = json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (document.is_discarded() || !document.is_object()) {
        problem = progress_path.string() + " is not valid JSON";
      } else if (const auto exercises = document.find("exercises");
                 exercises == document.end() || !exercises->is_object()) {
        problem = progress_path.string() + " has no \"exercises\" object";
      }
    }
    if (!problem.empty()) {
      // Keep what cannot be read for a person to look at; the next save starts afresh.
      std::filesystem::path aside = progress_path;
      aside += ".unreadable";
      std::error_code moved;
      std::filesystem::rename(progress_path, aside, moved);
      status =
          Error{ErrorKind::kIoError, problem + (moved ? "" : "; moved aside to " + aside.string())};
    } else {
      for (const auto& [id, entry] : document["exercises"].items()) {
        if (!is_safe_exercise_id(id) || !entry.is_object()) continue;
        ExerciseProgress& progress = progress_[id];
        const auto passed = entry.find("passed");
        progress.passed = passed != entry.end() && passed->is_boolean() && passed->get<bool>();
        progress.best_ms = read_time(entry, "best_ms");
        progress.solution_ms = read_time(entry, "solution_ms");
        progress.checks = read_count(entry, "checks");
        progress.failed_checks = read_count(entry, "failed_checks");
      }
    }
  }
  for (const auto& file : std::filesystem::directory_iterator(*folder_, error)) {
    const std::filesystem::path& path = file.path();
    if (path.extension() != kSourceExtension || !file.is_regular_file(error)) continue;
    const std::string id = path.stem().string();
    if (!is_safe_exercise_id(id)) continue;
    Result<std::string> source = read_text(path);
    if (!source) {
      if (status) status = source.error();
      continue;
    }
    progress_[id].source = std::move(*source);
  }
  return status;
}

const ExerciseProgress* LabProgressStore::find(std::string_view exercise_id) const {
  const auto found = progress_.find(exercise_id);
  return found == progress_.end() ? nullptr : &found->second;
}

Status LabProgressStore::save_source(std::string_view exercise_id, std::string_view source) {
  if (!is_safe_exercise_id(exercise_id)) {
    return invalid_argument("'" + std::string(exercise_id) + "' cannot name a file");
  }
  progress_[std::string(exercise_id)].source = std::string(source);
  if (!folder_) return Status::ok();
  return write_file_atomically(*source_path(exercise_id), source);
}

Status LabProgressStore::record_check(std::string_view exercise_id, bool passed, double kernel_ms,
                                      double solution_ms) {
  if (!is_safe_exercise_id(exercise_id)) {
    return invalid_argument("'" + std::string(exercise_id) + "' cannot name a file");
  }
  ExerciseProgress& progress = progress_[std::string(exercise_id)];
  ++progress.checks;
  if (!passed) {
    ++progress.failed_checks;
  } else {
    progress.passed = true;
    if (kernel_ms > 0 && (!progress.best_ms || kernel_ms < *progress.best_ms)) {
      progress.best_ms = kernel_ms;
      progress.solution_ms = solution_ms > 0 ? std::optional<double>(solution_ms) : std::nullopt;
    }
  }
  return write_progress();
}

Status LabProgressStore::write_progress() const {
  if (!folder_) return Status::ok();
  json exercises = json::object();
  for (const auto& [id, progress] : progress_) {
    json entry = {{"passed", progress.passed},
                  {"checks", progress.checks},
                  {"failed_checks", progress.failed_checks}};
    if (progress.best_ms) entry["best_ms"] = *progress.best_ms;
    if (progress.solution_ms) entry["solution_ms"] = *progress.solution_ms;
    exercises[id] = std::move(entry);
  }
  const json document = {{"version", 1}, {"exercises", std::move(exercises)}};
  return write_file_atomically(*folder_ / kProgressFile, document.dump(2) + "\n");
}

}  // namespace tl
