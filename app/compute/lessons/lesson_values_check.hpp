#pragma once
// The lesson's own verdict on parameter values that came from elsewhere (a classroom follow state
// from the network): the lesson exists here, and its configure accepts the values. A fresh lesson
// is made for the question, so nothing running changes and nothing is launched.

#include <string_view>

#include "core/lessons/lesson_params.hpp"
#include "core/result.hpp"

namespace tl::compute {

[[nodiscard]] Status check_lesson_values(std::string_view id, const lessons::ParamValues& values);

}  // namespace tl::compute
