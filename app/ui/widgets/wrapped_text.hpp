#pragma once
// Text wrapped at spaces only (core/text_wrap.hpp): ImGui's TextWrapped also breaks after '.' and
// ',', which split "-0.479008496" into "-0." and "479008496" in the Lab's verdicts.

#include <string_view>

namespace tl::ui {

// Draws `text` in lines no wider than `width` (0: what is left of the current region's width).
void text_wrapped_at_spaces(std::string_view text, float width = 0.0f);

}  // namespace tl::ui
