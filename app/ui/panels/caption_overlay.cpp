// A demo step's caption, large, in its own strip under the panels: what the class should look at.
// A strip and not a window over the app, so it never covers the plot's axis or the Launch button.

#include "panels.hpp"

namespace tl::ui {

void draw_caption_strip(AppController& controller, const Fonts& fonts, ImVec2 size) {
  const std::string caption = controller.state().classroom.caption();
  if (caption.empty()) return;
  ImGui::BeginChild("caption", size, true, ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushFont(fonts.heading);
  ImGui::TextWrapped("%s", caption.c_str());
  ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace tl::ui
