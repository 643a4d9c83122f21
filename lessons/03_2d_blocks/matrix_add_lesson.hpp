#pragma once
// Lesson 3, 2D blocks, behind the Lesson interface: C = A + B on a rows × cols matrix with a 2D
// grid of 2D blocks, x mapped to the column (coalesced) or to the row (strided).

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_matrix_add_lesson();

}  // namespace tl::compute
