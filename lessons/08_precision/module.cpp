// Registers lesson 8 (number formats): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/08_precision/precision.hpp"
#include "precision_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_08_precision() {
  static const compute::LessonModule kModule{lessons::kPrecisionInfo,
                                             &compute::make_precision_lesson};
  return kModule;
}

}  // namespace tl::lesson_modules
