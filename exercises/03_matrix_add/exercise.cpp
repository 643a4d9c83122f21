// Exercise: matrix add, x along the columns (lesson 3).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_03_matrix_add() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = matrix_add_exercise(/*x_walks_columns=*/true);
    lab::attach_exercise_files(e, "exercises/03_matrix_add");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
