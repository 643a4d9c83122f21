// Registers lesson 1 (vector-add): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "vector_add_benchmark.hpp"
#include "vector_add_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: CPU times, no PCIe",
     "The emulator runs each block's threads one after another on a pool of CPU worker "
     "threads, so its \"kernel\" rows are CPU work, and its \"end to end\" rows copy "
     "between two buffers in host memory, with no PCIe link to cross. Whether a GPU "
     "beats the CPU, and by how much, needs a GPU."},
    {"Warps and SMs", "Emulator: no SMs",
     "Blocks go to CPU worker threads, not to multiprocessors, so colouring by SM "
     "shows every element as \"SM unknown\"."},
};

}  // namespace

const compute::LessonModule& lesson_01_vector_add() {
  static const compute::LessonModule kModule{
      lessons::kVectorAddInfo, &compute::make_vector_add_lesson, &compute::vector_add_benchmark,
      nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
