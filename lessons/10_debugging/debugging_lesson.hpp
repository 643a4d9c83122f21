#pragma once
// Lesson 10, finding bugs in kernels, behind the Lesson interface.

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_debugging_lesson();

}  // namespace tl::compute
