// Exercise: the naive matrix multiply (lesson 4's first rung).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_07_matmul() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = matmul_exercise(/*tiled=*/false);
    lab::attach_exercise_files(e, "exercises/07_matmul");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
