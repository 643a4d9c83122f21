#include "core/lab_progress.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/user_files.hpp"

namespace tl {
namespace {

using nlohmann::json;

constexpr const char* kProgressFile = "progress.json";
constexpr const char* kLockFile = "progress.json.lock";
constexpr const char* kSourceExtension = ".cu";

// Regular files of bounded size only: a FIFO in their place must not block the app (F10).
Result<std::string> read_text(const std::filesystem::path& path) {
  return read_input_file(path);
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

using ProgressMap = std::map<std::string, ExerciseProgress, std::less<>>;

// The facts of a parsed progress.json into `progress` (sources untouched) and the exercise last
// open into `last_open`; a problem: why not.
std::string read_facts(const std::filesystem::path& path, const std::string& text,
                       ProgressMap& progress, std::optional<std::string>& last_open) {
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object()) return path.string() + " is not valid JSON";
  const auto exercises = document.find("exercises");
  if (exercises == document.end() || !exercises->is_object()) {
    return path.string() + " has no \"exercises\" object";
  }
  for (const auto& [id, entry] : exercises->items()) {
    if (!is_safe_exercise_id(id) || !entry.is_object()) continue;
    ExerciseProgress& p = progress[id];
    const auto passed = entry.find("passed");
    p.passed = passed != entry.end() && passed->is_boolean() && passed->get<bool>();
    p.best_ms = read_time(entry, "best_ms");
    p.solution_ms = read_time(entry, "solution_ms");
    p.checks = read_count(entry, "checks");
    p.failed_checks = read_count(entry, "failed_checks");
    p.hints_shown = read_count(entry, "hints_shown");
    const auto last = entry.find("last_verdict");
    if (last != entry.end() && last->is_object()) {
      const auto outcome = last->find("outcome");
      const auto reason = last->find("reason");
      if (outcome != last->end() && outcome->is_string() && reason != last->end() &&
          reason->is_string()) {
        p.last = LastVerdict{outcome->get<std::string>(), reason->get<std::string>()};
      }
    }
  }
  const auto open = document.find("last_exercise");
  if (open != document.end() && open->is_string() &&
      is_safe_exercise_id(open->get<std::string>())) {
    last_open = open->get<std::string>();
  }
  return {};
}

// An exclusive flock on progress.json.lock for as long as it lives: two instances of the app
// saving at once read, merge and write one after the other (F7). Without the lock (a file system
// that refuses it) saving still works, as it did before.
class ProgressLock {
 public:
  explicit ProgressLock(const std::filesystem::path& folder) {
    std::error_code created;
    std::filesystem::create_directories(folder, created);
    fd_ = ::open((folder / kLockFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~ProgressLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  ProgressLock(const ProgressLock&) = delete;
  ProgressLock& operator=(const ProgressLock&) = delete;

 private:
  int fd_ = -1;
};
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
    if (!text) {
      // Not moved aside: a transient EIO or EACCES is no reason to start a new file.
      status = text.error();
    } else if (const std::string problem = read_facts(progress_path, *text, progress_, last_open_);
               !problem.empty()) {
      progress_.clear();
      last_open_.reset();
      // Keep what cannot be read for a person to look at, under a name no earlier copy has, so
      // that a second bad file never destroys the first (F13).
      const Result<std::filesystem::path> aside = move_aside(progress_path, ".unreadable");
      status = Error{ErrorKind::kIoError, problem + (aside ? "; moved aside to " + aside->string()
                                                           : "; " + aside.message())};
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

void LabProgressStore::merge_from_disk() {
  // Read and merge under the caller's lock: what another instance saved since this one loaded is
  // taken in before this change is added, so neither loses the other's exercises.
  const std::filesystem::path progress_path = *folder_ / kProgressFile;
  std::error_code error;
  if (!std::filesystem::exists(progress_path, error)) return;
  Result<std::string> text = read_text(progress_path);
  if (!text) return;
  ProgressMap on_disk;
  std::optional<std::string> their_open;
  if (!read_facts(progress_path, *text, on_disk, their_open).empty()) return;
  // Every fact only grows (checks counted, a pass, a faster time, hints shown), so the larger of
  // the two is right for each: it also keeps what this instance failed to save before. A last
  // verdict this instance has is the newer one for it.
  for (const auto& [id, theirs] : on_disk) {
    ExerciseProgress& mine = progress_[id];
    mine.passed = mine.passed || theirs.passed;
    mine.checks = std::max(mine.checks, theirs.checks);
    mine.failed_checks = std::max(mine.failed_checks, theirs.failed_checks);
    mine.hints_shown = std::max(mine.hints_shown, theirs.hints_shown);
    if (theirs.best_ms && (!mine.best_ms || *theirs.best_ms < *mine.best_ms)) {
      mine.best_ms = theirs.best_ms;
      mine.solution_ms = theirs.solution_ms;
    }
    if (!mine.last && theirs.last) mine.last = theirs.last;
  }
  if (!last_open_) last_open_ = their_open;
}

Status LabProgressStore::remember_open(std::string_view exercise_id) {
  if (!is_safe_exercise_id(exercise_id)) {
    return invalid_argument("'" + std::string(exercise_id) + "' cannot name a file");
  }
  if (last_open_ == exercise_id) return Status::ok();
  std::optional<ProgressLock> lock;
  if (folder_) {
    lock.emplace(*folder_);
    merge_from_disk();
  }
  last_open_ = std::string(exercise_id);
  return write_progress();
}

Status LabProgressStore::record_hints_shown(std::string_view exercise_id, int count) {
  if (!is_safe_exercise_id(exercise_id)) {
    return invalid_argument("'" + std::string(exercise_id) + "' cannot name a file");
  }
  std::optional<ProgressLock> lock;
  if (folder_) {
    lock.emplace(*folder_);
    merge_from_disk();
  }
  ExerciseProgress& progress = progress_[std::string(exercise_id)];
  if (count <= progress.hints_shown) return Status::ok();
  progress.hints_shown = count;
  return write_progress();
}

Status LabProgressStore::record_check(std::string_view exercise_id, bool passed, double kernel_ms,
                                      double solution_ms, std::optional<LastVerdict> last) {
  if (!is_safe_exercise_id(exercise_id)) {
    return invalid_argument("'" + std::string(exercise_id) + "' cannot name a file");
  }
  std::optional<ProgressLock> lock;
  if (folder_) {
    lock.emplace(*folder_);
    merge_from_disk();
  }
  ExerciseProgress& progress = progress_[std::string(exercise_id)];
  if (last) progress.last = std::move(last);
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
    if (progress.hints_shown > 0) entry["hints_shown"] = progress.hints_shown;
    if (progress.last) {
      entry["last_verdict"] = {{"outcome", progress.last->outcome},
                               {"reason", progress.last->reason}};
    }
    exercises[id] = std::move(entry);
  }
  json document = {{"version", 1}, {"exercises", std::move(exercises)}};
  if (last_open_) document["last_exercise"] = *last_open_;
  return write_file_atomically(*folder_ / kProgressFile,
                               document.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

}  // namespace tl
