#pragma once
// Who a lesson is: the description a lesson module registers (compute/lessons/lesson_registry.hpp
// lists them all).

#include <string_view>

namespace tl::lessons {

struct LessonInfo {
  int number;
  std::string_view id;  // used on the command line: --lesson vector-add
  std::string_view title;
  std::string_view summary;
  std::string_view folder;  // under lessons/: the module's folder, its lesson.md included
};

}  // namespace tl::lessons
