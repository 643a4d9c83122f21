#include "ui/widgets/wrapped_text.hpp"

#include <imgui.h>

#include <algorithm>

#include "core/text_wrap.hpp"

namespace tl::ui {

void text_wrapped_at_spaces(std::string_view text, float width) {
  if (width <= 0.0f) width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize());
  const auto measure = [](std::string_view piece) {
    return ImGui::CalcTextSize(piece.data(), piece.data() + piece.size()).x;
  };
  for (const std::string_view line : wrap_at_spaces(text, width, measure)) {
    ImGui::TextUnformatted(line.data(), line.data() + line.size());
  }
}

}  // namespace tl::ui
