// Registers lesson 4 (matmul): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/04_matmul/matmul.hpp"
#include "matmul_benchmark.hpp"
#include "matmul_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_04_matmul() {
  static const compute::LessonModule kModule{lessons::kMatmulInfo, &compute::make_matmul_lesson,
                                             &compute::matmul_benchmark};
  return kModule;
}

}  // namespace tl::lesson_modules
