// Registers the scratch SAXPY lesson: lessons/CMakeLists.txt names this folder
// (threadlab_lesson(12_saxpy KERNEL_SET saxpy)), and the build's generated registry calls the
// function below. The source of tools/lessons/trial_scratch_lesson.sh, never shipped.

#include "compute/lessons/lesson_registry.hpp"
#include "saxpy.hpp"
#include "saxpy_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: CPU times, no PCIe",
     "The emulator runs each block's threads one after another on CPU worker threads, so its "
     "kernel row is CPU work, and its copies move between two buffers in host memory, with no "
     "PCIe link to cross. Whether a GPU beats the CPU needs a GPU."},
};

}  // namespace

const compute::LessonModule& lesson_12_saxpy() {
  static const compute::LessonModule kModule{lessons::kSaxpyInfo, &compute::make_saxpy_lesson,
                                             nullptr, nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
