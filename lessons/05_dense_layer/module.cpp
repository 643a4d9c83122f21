// Registers lesson 5 (dense-layer): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "dense_layer_benchmark.hpp"
#include "dense_layer_lesson.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: CPU times, no cuBLAS",
     "The kernels run on CPU worker threads, one thread of a block after another, so "
     "what the sections explain (coalesced reads of the weights, fewer trips through "
     "GPU memory) does not show as on a GPU, and cuBLAS needs a GPU. The paths' order "
     "here says nothing about a GPU's."},
};

}  // namespace

const compute::LessonModule& lesson_05_dense_layer() {
  static const compute::LessonModule kModule{
      lessons::kDenseLayerInfo, &compute::make_dense_layer_lesson, &compute::dense_layer_benchmark,
      nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
