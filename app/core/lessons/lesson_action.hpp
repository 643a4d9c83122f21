#pragma once
// "Try this" links in the lesson text set the controls, e.g.
//   [launch <<<1, 2048>>>](threadlab:set?n=2048&grid=1&block=2048&launch)
// Parsed here so the panel only forwards the action. Lesson parameters are passed on as text for
// the lesson to validate; the few keys below are the app's own.

#include <optional>
#include <string>

#include "core/lessons/lesson_params.hpp"
#include "core/result.hpp"

namespace tl::lessons {

struct LessonAction {
  std::optional<std::string> lesson;    // lesson=matmul: switch lessons first
  ParamValues values;                   // every other key=value
  std::optional<std::string> color_by;  // color=warp
  std::optional<std::string> view;      // view=grid: which results tab to bring to the front
  std::optional<std::string> pick;      // pick=17,9: the element (row, col) to inspect
  std::optional<std::string> plot;      // plot=gflops: what the timing plot's y axis shows
  std::optional<std::string> exercise;  // exercise=vector-add: open it in the Kernel Lab
  // submission=missing_guard: one of the exercise's known-wrong submissions (its wrong/ files) in
  // the editor, for a teacher to show a common mistake; submission=solution: the reference.
  std::optional<std::string> submission;
  // lab_grid=2: the Kernel Lab's grid for its next run or check ("" or "auto": each case's own).
  std::optional<std::string> lab_grid;
  bool launch = false;        // launch
  bool sweep = false;         // sweep (over sizes), or sweep=size / sweep=block
  bool sweep_blocks = false;  // sweep=block: over threads per block at the current size
  bool check = false;         // check: the Kernel Lab checks the open exercise
  bool run = false;           // run: the Kernel Lab runs it once on the example case
};

[[nodiscard]] bool is_lesson_action(const std::string& link);
Result<LessonAction> parse_lesson_action(const std::string& link);

}  // namespace tl::lessons
