#pragma once
// What the Kernel Lab remembers of each exercise between runs of the app: whether it passed, the
// best time of a passing kernel, and the learner's last source. Kept under the XDG data directory
// ($XDG_DATA_HOME/threadlab/lab, else ~/.local/share/threadlab/lab): one progress.json for the
// facts and one <exercise>.cu per source, so a learner can also open their kernel in their own
// editor (and `threadlab lab watch` it). Every file is written atomically: a crash of the app or
// of the worker never leaves half a file.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tl {

struct ExerciseProgress {
  bool passed = false;
  std::optional<double> best_ms;      // the fastest passing kernel's time
  std::optional<double> solution_ms;  // the reference solution's time in that same run
  int checks = 0;                     // checks run (compile errors included)
  int failed_checks = 0;              // of which did not pass: the solution may be shown
  std::optional<std::string> source;  // the last source saved; none: never edited
};

class LabProgressStore {
 public:
  // Files under `folder`; none keeps everything in memory (nothing survives the app).
  explicit LabProgressStore(std::optional<std::filesystem::path> folder);

  // $XDG_DATA_HOME/threadlab/lab (else ~/.local/share/threadlab/lab); none without either.
  static std::optional<std::filesystem::path> default_folder();

  // Reads progress.json and every exercise's source. An unreadable progress.json is moved aside
  // (progress.json.unreadable) rather than overwritten by the next save, and reported.
  Status load();

  [[nodiscard]] const ExerciseProgress* find(std::string_view exercise_id) const;
  [[nodiscard]] const std::map<std::string, ExerciseProgress, std::less<>>& all() const {
    return progress_;
  }

  // The learner's source, written to <id>.cu (the autosave).
  Status save_source(std::string_view exercise_id, std::string_view source);
  // A check's outcome: passed with its time (and the solution's, 0 or less: not measured), or not.
  Status record_check(std::string_view exercise_id, bool passed, double kernel_ms,
                      double solution_ms);

  [[nodiscard]] const std::optional<std::filesystem::path>& folder() const { return folder_; }
  // Where an exercise's source is kept (none in memory).
  [[nodiscard]] std::optional<std::filesystem::path> source_path(
      std::string_view exercise_id) const;

 private:
  Status write_progress() const;
  std::optional<std::filesystem::path> folder_;
  std::map<std::string, ExerciseProgress, std::less<>> progress_;
};

// Exercise ids become file names: lower-case letters, digits, '-' and '_' only.
[[nodiscard]] bool is_safe_exercise_id(std::string_view id);

}  // namespace tl
