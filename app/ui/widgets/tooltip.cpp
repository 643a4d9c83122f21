#include "ui/widgets/tooltip.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "ui/widgets/wrapped_text.hpp"

namespace tl::ui {

void wrapped_tooltip(const char* format, ...) {
  const float width = std::min(ImGui::GetFontSize() * 35.0f, ImGui::GetIO().DisplaySize.x * 0.9f);
  // Formatted, then wrapped at spaces, so that a number in a tooltip is never split across lines.
  va_list args;
  va_start(args, format);
  va_list measuring;
  va_copy(measuring, args);
  const int length = std::vsnprintf(nullptr, 0, format, measuring);
  va_end(measuring);
  std::string text(static_cast<std::size_t>(std::max(length, 0)), '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  ImGui::BeginTooltip();
  text_wrapped_at_spaces(text, width);
  ImGui::EndTooltip();
}

}  // namespace tl::ui
