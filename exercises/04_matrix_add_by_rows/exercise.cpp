// Exercise: matrix add, x along the rows (lesson 3's uncoalesced mapping).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_04_matrix_add_by_rows() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = matrix_add_exercise(/*x_walks_columns=*/false);
    lab::attach_exercise_files(e, "exercises/04_matrix_add_by_rows");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
