// The registry's lookups and the files of each exercise folder, as compiled into the app.
#include <optional>
#include <string>
#include <vector>

#include "lab/exercise_registry.hpp"

namespace tl::lab_texts {
std::optional<std::string_view> find_text(std::string_view path);
std::vector<std::string_view> text_paths();
}  // namespace tl::lab_texts

namespace tl::lab {
namespace {

// hints.md: one hint after another, each ended by a line that is exactly `---`; blank hints are
// dropped.
std::vector<std::string> split_hints(std::string_view text) {
  std::vector<std::string> hints;
  std::string current;
  auto finish = [&] {
    while (!current.empty() && (current.back() == '\n' || current.back() == ' ')) {
      current.pop_back();
    }
    const std::size_t start = current.find_first_not_of("\n ");
    if (start != std::string::npos) hints.push_back(current.substr(start));
    current.clear();
  };
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line == "---") {
      finish();
    } else {
      current.append(line);
      current.push_back('\n');
    }
    start = end + 1;
  }
  finish();
  return hints;
}

}  // namespace

const Exercise* find_exercise(std::string_view id) {
  for (const Exercise* exercise : registered_exercises()) {
    if (exercise->id == id) return exercise;
  }
  return nullptr;
}

void attach_exercise_files(Exercise& exercise, std::string_view folder) {
  const std::string base(folder);
  exercise.statement = std::string(lab_texts::find_text(base + "/statement.md").value_or(""));
  exercise.starter = std::string(lab_texts::find_text(base + "/starter.cu").value_or(""));
  exercise.solution = std::string(lab_texts::find_text(base + "/solution.cu").value_or(""));
  exercise.hints = split_hints(lab_texts::find_text(base + "/hints.md").value_or(""));
  const std::string wrong_prefix = base + "/wrong/";
  for (std::string_view path : lab_texts::text_paths()) {
    if (path.substr(0, wrong_prefix.size()) != wrong_prefix) continue;
    KnownWrongSubmission wrong;
    wrong.path = std::string(path);
    wrong.source = std::string(*lab_texts::find_text(path));
    const std::string marker = "// expect:";
    if (wrong.source.rfind(marker, 0) == 0) {
      const std::size_t end = wrong.source.find('\n');
      wrong.expected_words = wrong.source.substr(marker.size(), end - marker.size());
      while (!wrong.expected_words.empty() && wrong.expected_words.front() == ' ') {
        wrong.expected_words.erase(0, 1);
      }
    }
    exercise.known_wrong.push_back(std::move(wrong));
  }
}

}  // namespace tl::lab
