// Registers the capstone (training): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/09_training/training.hpp"
#include "train_command.hpp"
#include "training_benchmark.hpp"
#include "training_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: no launch latency",
     "Every launch of the step runs on CPU worker threads: the step's time is the "
     "emulator's, a launch costs no GPU launch latency, and the CUDA Graph row needs a "
     "GPU."},
};

}  // namespace

const compute::LessonModule& lesson_09_training() {
  static const compute::LessonModule kModule{lessons::kTrainingInfo, &compute::make_training_lesson,
                                             &compute::training_benchmark,
                                             &lessons::train_command(), kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
