#pragma once
// Fonts and colours. Fonts come from Debian's font packages and are rasterised at the UI scale (a
// rebuilt atlas, never a blurry scaled bitmap); ImGui's built-in font is the fallback.

#include <imgui.h>

#include "core/classroom/settings.hpp"

namespace tl::ui {

struct Fonts {
  ImFont* body = nullptr;
  ImFont* bold = nullptr;
  ImFont* heading = nullptr;
  ImFont* mono = nullptr;
};

// Loads the fonts into the current ImGui context's atlas at `scale` and styles the UI in `theme`.
// Call before the renderer backend builds the font texture (again after a change of scale: the
// atlas is rebuilt at the new size, so text stays sharp).
Fonts setup_theme(float scale, classroom::Theme theme = classroom::Theme::kDark);

// Colours the panels share, so that one meaning has one colour everywhere; the high-contrast
// theme (presenter mode, for projectors) has its own.
struct Palette {
  ImVec4 error;
  ImVec4 warning;
  ImVec4 ok;
  ImVec4 muted;
  ImVec4 link;
  ImVec4 code_background;
  ImVec4 highlight;  // the current guided step's background
};
const Palette& palette();

}  // namespace tl::ui
