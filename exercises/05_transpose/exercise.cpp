// Exercise: a naive transpose (lesson 3: reads coalesce, writes do not).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_05_transpose() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = transpose_exercise(/*tiled=*/false);
    lab::attach_exercise_files(e, "exercises/05_transpose");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
