#pragma once
// The scratch SAXPY lesson behind the Lesson interface.

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_saxpy_lesson();

}  // namespace tl::compute
