// Exercise: transpose through shared memory (coalesced reads and writes).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_06_transpose_shared() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = transpose_exercise(/*tiled=*/true);
    lab::attach_exercise_files(e, "exercises/06_transpose_shared");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
