#pragma once
// Lesson 11, convolution, behind the Lesson interface: its parameters, the timed run of every rung
// and cuDNN on the same inputs, and the traced launch of the selected rung.

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_convolution_lesson();

}  // namespace tl::compute
