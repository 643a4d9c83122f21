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

// The last check of an exercise, in words: what the Lab shows when the learner comes back to it
// in a later session (the traces and timings of that check are not kept).
struct LastVerdict {
  std::string outcome;  // lab::to_string(Outcome): "passed", "failed", "compile-error"
  std::string reason;   // the verdict's one line
  friend bool operator==(const LastVerdict&, const LastVerdict&) = default;
};

struct ExerciseProgress {
  bool passed = false;
  std::optional<double> best_ms;      // the fastest passing kernel's time
  std::optional<double> solution_ms;  // the reference solution's time in that same run
  int checks = 0;                     // checks run (compile errors included)
  int failed_checks = 0;              // of which did not pass: the solution may be shown
  std::optional<std::string> source;  // the last source saved; none: never edited
  std::optional<LastVerdict> last;    // the last check's verdict, in words
  int hints_shown = 0;                // how far down the exercise's hints the learner went
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
                      double solution_ms, std::optional<LastVerdict> last = std::nullopt);
  // The exercise open in the Lab, so that the next session opens it again.
  Status remember_open(std::string_view exercise_id);
  // The exercise open when the Lab was last used; none before the first.
  [[nodiscard]] const std::optional<std::string>& last_open() const { return last_open_; }
  // The learner revealed `count` of the exercise's hints (counts only grow).
  Status record_hints_shown(std::string_view exercise_id, int count);

  [[nodiscard]] const std::optional<std::filesystem::path>& folder() const { return folder_; }
  // Where an exercise's source is kept (none in memory).
  [[nodiscard]] std::optional<std::filesystem::path> source_path(
      std::string_view exercise_id) const;

 private:
  Status write_progress() const;
  // Under the lock: what another instance saved since this one loaded is merged in first.
  void merge_from_disk();
  std::optional<std::filesystem::path> folder_;
  std::optional<std::string> last_open_;
  std::map<std::string, ExerciseProgress, std::less<>> progress_;
};

// Exercise ids become file names: lower-case letters, digits, '-' and '_' only.
[[nodiscard]] bool is_safe_exercise_id(std::string_view id);

}  // namespace tl
