#pragma once
// `threadlab train`, the capstone's command (train_command.cpp), registered with its module.

#include "compute/lessons/lesson_command.hpp"

namespace tl::lessons {

const compute::LessonCommand& train_command();

}  // namespace tl::lessons
