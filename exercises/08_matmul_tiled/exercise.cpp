// Exercise: matrix multiply through shared-memory tiles (lesson 4's tiled rung).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_08_matmul_tiled() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = matmul_exercise(/*tiled=*/true);
    lab::attach_exercise_files(e, "exercises/08_matmul_tiled");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
