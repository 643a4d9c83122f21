// Registers lesson 6 (reductions): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/06_reductions/reductions.hpp"
#include "reductions_benchmark.hpp"
#include "reductions_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: not a GPU's order",
     "A block's threads run one after another on a few CPU worker threads: atomics do "
     "not contend as thousands of GPU threads do, and shared-memory trees and warp "
     "shuffles cost thread switches instead of saving memory traffic. GB/s here are "
     "this CPU's; CUB needs a GPU."},
};

}  // namespace

const compute::LessonModule& lesson_06_reductions() {
  static const compute::LessonModule kModule{
      lessons::kReductionsInfo, &compute::make_reductions_lesson, &compute::reductions_benchmark,
      nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
