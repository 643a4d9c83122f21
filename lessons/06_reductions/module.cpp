// Registers lesson 6 (reductions): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/06_reductions/reductions.hpp"
#include "reductions_benchmark.hpp"
#include "reductions_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_06_reductions() {
  static const compute::LessonModule kModule{
      lessons::kReductionsInfo, &compute::make_reductions_lesson, &compute::reductions_benchmark};
  return kModule;
}

}  // namespace tl::lesson_modules
