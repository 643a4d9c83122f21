// Registers lesson 3 (2d-blocks): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/03_2d_blocks/matrix_add.hpp"
#include "matrix_add_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: no warps to coalesce",
     "The emulator runs a block's threads one after another, so no warp's loads are "
     "combined. Where the two mappings differ in time here, it is the CPU's caches "
     "(one thread after another walking along a row or down a column), not coalescing."},
};

}  // namespace

const compute::LessonModule& lesson_03_2d_blocks() {
  static const compute::LessonModule kModule{
      lessons::kMatrixAddInfo, &compute::make_matrix_add_lesson, nullptr, nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
