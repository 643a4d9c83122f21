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
    {"8. Warp-level programming", "Emulator: lanes meet as fibers",
     "A warp's 32 lanes run one after another and wait for each other at every shuffle and vote, "
     "so a wrong mask stops the launch with the warp, the mask and the missing lanes named. On a "
     "GPU the same mistake is undefined behaviour and may look right. Cooperative groups here are "
     "the emulator's own small version, built on the same warp operations."},
    {"9. Scan: every prefix at once", "Emulator: the CPU's times, same prefixes",
     "The scan's three steps run as on a GPU and are checked the same way, but a warp's shuffles "
     "cost fiber switches here, and CUB's single-pass scan, the GPU's reference, needs a GPU."},
};

}  // namespace

const compute::LessonModule& lesson_06_reductions() {
  static const compute::LessonModule kModule{
      lessons::kReductionsInfo, &compute::make_reductions_lesson, &compute::reductions_benchmark,
      nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
