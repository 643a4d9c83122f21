// Registers lesson 10 (debugging): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "debugging.hpp"
#include "debugging_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: bugs caught in the act, not on a GPU",
     "The emulator runs the planted bugs in this process: it names a divergent barrier the moment "
     "it happens, catches writes past the end of out in a guard zone it allocates after it, and "
     "refuses the null pointer (a GPU faults; this process would end). A race without a barrier "
     "gives the right values here, because a block's threads run one after another: the Kernel "
     "Lab's race check, or racecheck on a GPU, finds it."},
};

}  // namespace

const compute::LessonModule& lesson_10_debugging() {
  static const compute::LessonModule kModule{
      lessons::kDebuggingInfo, &compute::make_debugging_lesson, nullptr, nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
