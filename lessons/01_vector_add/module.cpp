// Registers lesson 1 (vector-add): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "vector_add_benchmark.hpp"
#include "vector_add_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_01_vector_add() {
  static const compute::LessonModule kModule{
      lessons::kVectorAddInfo, &compute::make_vector_add_lesson, &compute::vector_add_benchmark};
  return kModule;
}

}  // namespace tl::lesson_modules
