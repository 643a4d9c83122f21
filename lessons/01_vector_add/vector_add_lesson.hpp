#pragma once
// Lesson 1 behind the Lesson interface.

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_vector_add_lesson();

}  // namespace tl::compute
