#pragma once
// Colours of the plot, derived from the ImGui style so light and dark themes both work.

#include <imgui.h>

#include <cstdint>

namespace tl::ui {

// Series colour (0xRRGGBBAA) to ImGui's packed colour, with its alpha scaled by `alpha_scale`.
inline ImU32 plot_color(std::uint32_t rgba, float alpha_scale = 1.0f) {
  const auto channel = [rgba](int shift) { return static_cast<int>((rgba >> shift) & 0xFFu); };
  const float alpha = static_cast<float>(channel(0)) * alpha_scale;
  return IM_COL32(channel(24), channel(16), channel(8), static_cast<int>(alpha + 0.5f));
}

// A style colour with its alpha scaled, for grid lines that must stay behind the data.
inline ImU32 style_color(ImGuiCol color, float alpha_scale = 1.0f) {
  return ImGui::GetColorU32(color, alpha_scale);
}

// Faint series (an earlier sweep) are drawn at this fraction of their alpha.
inline constexpr float kFaintAlpha = 0.35f;
// Min–max bands are drawn at this fraction of the series' alpha.
inline constexpr float kBandAlpha = 0.18f;

}  // namespace tl::ui
