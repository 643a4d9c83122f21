// Registers lesson 2 (thread-hierarchy): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"
#include "thread_hierarchy_benchmark.hpp"
#include "thread_hierarchy_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: no warps, waves or SMs",
     "A block's threads run one after another on a CPU worker thread, not as 32 lanes "
     "in step, and blocks go to worker threads, not SMs: divergence, waves and the SM "
     "view cannot show here."},
    {"Warp divergence", "Emulator: divergence is free",
     "It runs a block's threads one after another, not 32 lanes in step, so no lane "
     "ever waits for the other branch: the divergent and the uniform kernel take about "
     "the same CPU time."},
    {"SMs and waves", "Emulator: no SMs, no waves",
     "Blocks go to CPU worker threads as those come free; there is no SM to colour and "
     "no SM clock to draw the block timeline from."},
};

}  // namespace

const compute::LessonModule& lesson_02_thread_hierarchy() {
  static const compute::LessonModule kModule{
      lessons::kThreadHierarchyInfo, &compute::make_thread_hierarchy_lesson,
      &compute::thread_hierarchy_benchmark, nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
