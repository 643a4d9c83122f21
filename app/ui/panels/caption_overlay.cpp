// A demo step's caption, large, over the bottom of the app: what the class should look at.

#include "panels.hpp"

namespace tl::ui {

void draw_caption_overlay(AppController& controller, const Fonts& fonts) {
  const std::string caption = controller.state().classroom.caption();
  if (caption.empty()) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float margin = ImGui::GetFontSize() * 2.0f;
  const float width = viewport->WorkSize.x * 0.7f;
  ImGui::SetNextWindowPos({viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                           viewport->WorkPos.y + viewport->WorkSize.y - margin},
                          ImGuiCond_Always, {0.5f, 1.0f});
  ImGui::SetNextWindowSizeConstraints({0, 0}, {width, viewport->WorkSize.y * 0.4f});
  ImGui::SetNextWindowBgAlpha(0.88f);
  constexpr ImGuiWindowFlags kFlags =
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
      ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##caption", nullptr, kFlags)) {
    ImGui::PushFont(fonts.heading);
    ImGui::PushTextWrapPos(width - ImGui::GetStyle().WindowPadding.x * 2);
    ImGui::TextUnformatted(caption.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
  }
  ImGui::End();
}

}  // namespace tl::ui
