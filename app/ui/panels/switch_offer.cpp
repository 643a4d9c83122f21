// Another lesson asked for while measurements run: the window offers to cancel them and open it,
// instead of refusing (AppController::select_lesson, state().switch_offer).

#include <string>

#include "panels.hpp"

namespace tl::ui {

void draw_switch_offer(AppController& controller, const Fonts& fonts) {
  const std::optional<LessonSwitchOffer>& offer = controller.state().switch_offer;
  if (!offer) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                           viewport->WorkPos.y + viewport->WorkSize.y * 0.5f},
                          ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::SetNextWindowSizeConstraints({0, 0},
                                      {viewport->WorkSize.x * 0.9f, viewport->WorkSize.y * 0.9f});
  ImGui::SetNextWindowFocus();
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Measurements are running###switch_offer", nullptr, kFlags)) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    if (offer->cancelling) {
      ImGui::Text("Cancelling %s.", offer->running.c_str());
      ImGui::TextColored(palette().muted, "%s opens as soon as it has stopped.",
                         offer->lesson_title.c_str());
    } else {
      ImGui::Text("%s is still running.", offer->running.c_str());
      ImGui::PushFont(fonts.bold);
      ImGui::Text("Cancel it and open %s?", offer->lesson_title.c_str());
      ImGui::PopFont();
      ImGui::Spacing();
      const std::string accept = "Cancel it and open " + offer->lesson_title;
      if (ImGui::Button(accept.c_str())) controller.accept_switch_offer();
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("What it measured so far is dropped; the new lesson launches at once");
      }
      ImGui::SameLine();
      if (ImGui::Button("Keep it running")) controller.decline_switch_offer();
      if (ImGui::IsItemHovered()) wrapped_tooltip("Stays on this lesson; nothing is cancelled");
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace tl::ui
