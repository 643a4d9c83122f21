#include "ui/widgets/tooltip.hpp"

#include <algorithm>
#include <cstdarg>

namespace tl::ui {

void wrapped_tooltip(const char* format, ...) {
  const float width = std::min(ImGui::GetFontSize() * 35.0f, ImGui::GetIO().DisplaySize.x * 0.9f);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(width);
  va_list args;
  va_start(args, format);
  ImGui::TextV(format, args);
  va_end(args);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace tl::ui
