#include "compute/lessons/lesson_values_check.hpp"

#include "compute/lessons/lesson_registry.hpp"

namespace tl::compute {

Status check_lesson_values(std::string_view id, const lessons::ParamValues& values) {
  auto lesson = make_lesson(id);
  if (!lesson) return lesson.status();
  return (*lesson)->configure(values);
}

}  // namespace tl::compute
