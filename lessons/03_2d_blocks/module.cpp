// Registers lesson 3 (2d-blocks): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/03_2d_blocks/matrix_add.hpp"
#include "matrix_add_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_03_2d_blocks() {
  static const compute::LessonModule kModule{lessons::kMatrixAddInfo,
                                             &compute::make_matrix_add_lesson};
  return kModule;
}

}  // namespace tl::lesson_modules
