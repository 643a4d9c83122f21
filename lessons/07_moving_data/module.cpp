// Registers lesson 7 (moving-data): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/07_moving_data/moving_data.hpp"
#include "moving_data_benchmark.hpp"
#include "moving_data_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: no PCIe, no streams",
     "Copies are host memcpy between buffers in the same memory, pinned and pageable "
     "alike, and the overlap timeline is a model scheduled from the measured chunk "
     "times (labelled MODEL), never a GPU measurement."},
};

}  // namespace

const compute::LessonModule& lesson_07_moving_data() {
  static const compute::LessonModule kModule{
      lessons::kMovingDataInfo, &compute::make_moving_data_lesson, &compute::moving_data_benchmark,
      nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
