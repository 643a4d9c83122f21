#pragma once
// Fonts and colours. Fonts come from Debian's font packages and are rasterised at the UI scale (a
// rebuilt atlas, never a blurry scaled bitmap); ImGui's built-in font is the fallback.

#include <imgui.h>

namespace tl::ui {

struct Fonts {
  ImFont* body = nullptr;
  ImFont* bold = nullptr;
  ImFont* heading = nullptr;
  ImFont* mono = nullptr;
};

// Loads the fonts into the current ImGui context's atlas at `scale` and styles the UI. Call before
// the renderer backend builds the font texture.
Fonts setup_theme(float scale);

// Colours the panels share, so that one meaning has one colour everywhere.
inline const ImVec4 kErrorColor{1.00f, 0.42f, 0.40f, 1.0f};
inline const ImVec4 kWarningColor{1.00f, 0.78f, 0.30f, 1.0f};
inline const ImVec4 kOkColor{0.45f, 0.85f, 0.55f, 1.0f};
inline const ImVec4 kMutedColor{0.62f, 0.64f, 0.70f, 1.0f};
inline const ImVec4 kLinkColor{0.45f, 0.72f, 1.00f, 1.0f};
inline const ImVec4 kCodeBackground{0.11f, 0.12f, 0.15f, 1.0f};

}  // namespace tl::ui
