#pragma once
// A lesson's guided steps, for a class driven from a presentation clicker. A lesson declares them
// in its markdown: every list item or paragraph that *begins* with a "threadlab:set?..." link is a
// step. The link's text is the step's title, the whole item is its text, the link's settings are
// the controls it sets, and `launch` or `sweep` in it says whether it launches. Links later in a
// line
// ("Compare [TILE = 8](...) and [TILE = 16](...)") stay plain links, so an author chooses.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/markdown/lesson_document.hpp"
#include "core/result.hpp"

namespace tl::classroom {

struct GuidedStep {
  std::size_t block = 0;  // the step's block in the lesson document, to highlight and scroll to
  std::string title;      // the link's text
  std::string text;       // the whole item as plain text
  std::string section;    // the heading the step sits under
  std::string action;     // the "threadlab:set?..." link it applies
  bool launches = false;  // it launches a kernel or starts a sweep
};

// The step as its bar names it: "A small sum, one block: Launch it", or the title alone where it
// sits under no heading (the bar read ": A small sum, one block").
[[nodiscard]] std::string step_heading(const GuidedStep& step);

// Steps in document order. A step whose link does not parse is an error naming it, so a typo in a
// lesson is caught by the tests rather than in front of a class.
Result<std::vector<GuidedStep>> collect_steps(const markdown::Document& document);

// Where a class is in the lesson's steps: before the first (the lesson's introduction) or at one.
class StepCursor {
 public:
  StepCursor() = default;
  explicit StepCursor(std::size_t count) : count_(count) {}

  [[nodiscard]] std::size_t count() const { return count_; }
  [[nodiscard]] std::optional<std::size_t> current() const { return current_; }
  [[nodiscard]] bool at_start() const { return !current_.has_value(); }
  [[nodiscard]] bool at_end() const { return count_ == 0 || current_ == count_ - 1; }

  // Move one step; false (and no move) past either end, so the caller can go on to the next or
  // the previous lesson instead.
  bool next();
  bool previous();
  // Jump to a step (the last one when `index` is past the end); none: back to the introduction.
  void go_to(std::optional<std::size_t> index);

  // "Introduction" before the first step, else "Step 3 of 9".
  [[nodiscard]] std::string progress_text() const;

 private:
  std::size_t count_ = 0;
  std::optional<std::size_t> current_;
};

}  // namespace tl::classroom
