// Registers lesson 8 (number formats): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/08_precision/precision.hpp"
#include "precision_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: rounding in software",
     "The emulator computes each format's bits as a GPU does, so the errors are a "
     "GPU's, but every conversion is a CPU function: the low-precision rows' times "
     "measure that software, not the fewer bytes a GPU reads."},
};

}  // namespace

const compute::LessonModule& lesson_08_precision() {
  static const compute::LessonModule kModule{
      lessons::kPrecisionInfo, &compute::make_precision_lesson, nullptr, nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
