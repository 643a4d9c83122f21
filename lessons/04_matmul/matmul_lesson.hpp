#pragma once
// Lesson 4, matrix multiply, behind the Lesson interface.

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_matmul_lesson();

}  // namespace tl::compute
