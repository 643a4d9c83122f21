#pragma once
// "Try this" links in the lesson text set the controls, e.g.
//   [launch <<<1, 2048>>>](threadlab:set?n=2048&grid=1&block=2048&launch)
// Parsed here so the panel only forwards the action.

#include <cstdint>
#include <optional>
#include <string>

#include "core/dim3.hpp"
#include "core/result.hpp"

namespace tl::lessons {

struct LessonAction {
  std::optional<std::uint64_t> n;
  std::optional<Dim3> grid;
  std::optional<Dim3> block;
  std::optional<std::string> color_by;
  bool launch = false;
  bool sweep = false;
};

[[nodiscard]] bool is_lesson_action(const std::string& link);
Result<LessonAction> parse_lesson_action(const std::string& link);

}  // namespace tl::lessons
