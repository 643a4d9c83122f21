#pragma once
// The embedded lesson texts and kernel sources (generated from lessons/*/lesson.md and
// kernels/*.cuh).

#include <optional>
#include <string_view>

namespace tl::lesson_texts {

// By path relative to the project root, e.g. "lessons/01_vector_add/lesson.md" or
// "lessons/01_vector_add/kernels/vector_add.cuh".
std::optional<std::string_view> find_text(std::string_view path);

}  // namespace tl::lesson_texts
