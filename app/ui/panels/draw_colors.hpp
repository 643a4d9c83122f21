#pragma once
// The core's colours (sRGB floats) as ImGui draw-list colours, shared by the panels that draw.

#include <imgui.h>

#include "core/color_scheme.hpp"

namespace tl::ui {

inline ImU32 to_imgui(const Rgb& c, float alpha = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32({c.r, c.g, c.b, alpha});
}

}  // namespace tl::ui
