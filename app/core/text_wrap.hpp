#pragma once
// Text broken into lines at spaces only. ImGui 1.86's own wrapping also breaks after '.' and ',',
// so a verdict's "-0.479008496" could end one line at "-0." and go on with "479008496" on the next,
// and "1,048,576" could lose its last group: a number read across two lines is read wrong.

#include <functional>
#include <string_view>
#include <vector>

namespace tl {

// The lines of `text` no wider than `width` as `measure` measures them, broken only at spaces and
// at '\n' (the spaces at a break are dropped): a number, a path or an index such as C(0, 1) keeps
// its pieces together. A single word wider than `width` gets a line of its own and may overflow.
[[nodiscard]] std::vector<std::string_view> wrap_at_spaces(
    std::string_view text, float width, const std::function<float(std::string_view)>& measure);

}  // namespace tl
