// Registers lesson 11 (convolution): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "convolution_benchmark.hpp"
#include "convolution_lesson.hpp"
#include "lessons/11_convolution/convolution.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: the ladder's order is a GPU's question",
     "The emulator runs every thread on the CPU: shared memory is ordinary memory the caches "
     "already serve, a barrier switches through the block's threads, and there are no tensor "
     "cores and no cuDNN. Every rung's result is checked here just as on a GPU; which rung is "
     "fastest, and by how much, needs a GPU."},
    {"Four rungs and cuDNN", "Emulator: no tensor cores, no cuDNN",
     "The tensor-core rung's row is greyed and cuDNN is left out, each with the reason in the "
     "notes: the emulator does not imitate WMMA fragments, and cuDNN runs only on a GPU."},
};

}  // namespace

const compute::LessonModule& lesson_11_convolution() {
  static const compute::LessonModule kModule{
      lessons::kConvolutionInfo, &compute::make_convolution_lesson, &compute::convolution_benchmark,
      nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
