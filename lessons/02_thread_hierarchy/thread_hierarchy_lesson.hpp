#pragma once
// Lesson 2, the thread hierarchy, behind the Lesson interface: out = 2 * in + 1 on 1D, 2D or 3D
// grids of 1D, 2D or 3D blocks, one element per thread or with a grid-stride loop.

#include <memory>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_thread_hierarchy_lesson();

}  // namespace tl::compute
