// Registers the capstone (training): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/09_training/training.hpp"
#include "train_command.hpp"
#include "training_benchmark.hpp"
#include "training_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_09_training() {
  static const compute::LessonModule kModule{lessons::kTrainingInfo, &compute::make_training_lesson,
                                             &compute::training_benchmark,
                                             &lessons::train_command()};
  return kModule;
}

}  // namespace tl::lesson_modules
