#pragma once
// The lessons ThreadLab teaches, in the source article's order.

#include <optional>
#include <span>
#include <string_view>

namespace tl::lessons {

struct LessonInfo {
  int number;
  std::string_view id;  // used on the command line: --lesson vector-add
  std::string_view title;
  std::string_view summary;
  std::string_view folder;  // under lessons/: the markdown text lives there
  bool available;           // implemented in this version
};

std::span<const LessonInfo> catalog();
std::optional<LessonInfo> find_lesson(std::string_view id);

}  // namespace tl::lessons
