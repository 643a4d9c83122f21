#pragma once
// Turns the launch options shared by run, bench and render into a configured lesson.

#include <memory>

#include "commands.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/result.hpp"

namespace tl::cli {

// The lesson with the command line's parameters applied (and --single-block, for 1D lessons).
Result<std::unique_ptr<compute::Lesson>> configure_lesson(const LaunchOptions& options);

// Every parameter name of every available lesson, for registering command-line options. The help
// of each names the lessons that take it, each with its own meaning and default.
std::vector<lessons::ParamSpec> all_lesson_params();

}  // namespace tl::cli
