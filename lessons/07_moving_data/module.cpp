// Registers lesson 7 (moving-data): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/07_moving_data/moving_data.hpp"
#include "moving_data_benchmark.hpp"
#include "moving_data_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_07_moving_data() {
  static const compute::LessonModule kModule{
      lessons::kMovingDataInfo, &compute::make_moving_data_lesson, &compute::moving_data_benchmark};
  return kModule;
}

}  // namespace tl::lesson_modules
