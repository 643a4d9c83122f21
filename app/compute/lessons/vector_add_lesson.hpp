#pragma once
// Lesson 1 behind the Lesson interface.

#include <memory>

#include "lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_vector_add_lesson();

}  // namespace tl::compute
