#pragma once
// The registered exercises, in lesson order: generated from exercises/CMakeLists.txt (one folder
// and one line each, as lessons are), defined in the threadlab_exercises library.

#include <span>
#include <string_view>

#include "lab/exercise.hpp"

namespace tl::lab {

std::span<const Exercise* const> registered_exercises();
[[nodiscard]] const Exercise* find_exercise(std::string_view id);

// Fills the exercise's statement, starter, solution and known-wrong submissions from the files of
// its folder (e.g. "exercises/01_vector_add"), compiled into the app.
void attach_exercise_files(Exercise& exercise, std::string_view folder);

}  // namespace tl::lab
