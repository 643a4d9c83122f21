// Registers lesson 5 (dense-layer): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "dense_layer_benchmark.hpp"
#include "dense_layer_lesson.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_05_dense_layer() {
  static const compute::LessonModule kModule{
      lessons::kDenseLayerInfo, &compute::make_dense_layer_lesson, &compute::dense_layer_benchmark};
  return kModule;
}

}  // namespace tl::lesson_modules
