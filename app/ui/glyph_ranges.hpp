#pragma once
// The characters the UI fonts are rasterised with. ImGui draws '?' for anything outside these
// ranges, so they cover whole Unicode blocks the lesson texts and kernel comments draw from (a test
// checks every character they use), not a hand-picked list that misses the next "−" or "ᵀ".

#include <imgui.h>

namespace tl::ui {

inline constexpr ImWchar kUiGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin and Latin-1: ×, ·, µ, ², ±
    0x0370, 0x03FF,  // Greek: σ, Σ, Δ
    0x1D00, 0x1DBF,  // phonetic extensions: the superscript ᵀ of Wᵀ
    0x2000, 0x206F,  // general punctuation: – — … • ‘ ’
    0x2070, 0x209F,  // superscripts and subscripts: ⁻ ⁿ ₀
    0x2190, 0x21FF,  // arrows: → ←
    0x2200, 0x22FF,  // mathematical operators: − ≤ ≈ ∑ √
    0,
};

// Whether `c` is in kUiGlyphRanges.
[[nodiscard]] constexpr bool has_ui_glyph(char32_t c) {
  for (int i = 0; kUiGlyphRanges[i] != 0; i += 2) {
    if (c >= kUiGlyphRanges[i] && c <= kUiGlyphRanges[i + 1]) return true;
  }
  return false;
}

}  // namespace tl::ui
