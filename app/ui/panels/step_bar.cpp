// Where the class is in the lesson: "Step 3 of 9", one dot per step (click one to go there), the
// step's title, and Previous / Next for those without a clicker.

#include "panels.hpp"

namespace tl::ui {

void draw_step_bar(AppController& controller, const Fonts& fonts) {
  const ClassroomState& c = controller.state().classroom;
  if (!c.steps_error.empty()) {
    ImGui::TextColored(palette().error, "Guided steps: %s", c.steps_error.c_str());
    return;
  }
  if (c.steps.empty()) return;
  if (ImGui::ArrowButton("##previous_step", ImGuiDir_Left)) controller.previous_step();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous step (Left, PageUp)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next_step", ImGuiDir_Right)) controller.next_step();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Next step (Right, PageDown): sets its controls and launches");
  }
  ImGui::SameLine();
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted(c.cursor.progress_text().c_str());
  ImGui::PopFont();

  // The dots: done steps filled, the current one ringed, the rest hollow.
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float radius = ImGui::GetFontSize() * 0.28f;
  const float pitch = radius * 3.0f;
  ImGui::SameLine(0, radius * 2);
  const float available = ImGui::GetContentRegionAvail().x;
  if (static_cast<float>(c.steps.size()) * pitch <= available) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float y = origin.y + ImGui::GetTextLineHeight() * 0.5f;
    const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 accent = ImGui::GetColorU32(palette().link);
    for (std::size_t i = 0; i < c.steps.size(); ++i) {
      const ImVec2 centre{origin.x + radius + pitch * static_cast<float>(i), y};
      const bool current = c.cursor.current() == i;
      const bool done = c.cursor.current() && i < *c.cursor.current();
      if (current) {
        draw->AddCircleFilled(centre, radius * 1.2f, accent);
      } else if (done) {
        draw->AddCircleFilled(centre, radius, color);
      } else {
        draw->AddCircle(centre, radius, color, 0, 1.5f);
      }
      ImGui::SetCursorScreenPos({centre.x - pitch * 0.5f, origin.y});
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::InvisibleButton("##dot", {pitch, ImGui::GetTextLineHeight()})) {
        controller.go_to_step(i);
      }
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Step %zu: %s", i + 1, c.steps[i].title.c_str());
      }
      ImGui::PopID();
      ImGui::SameLine(0, 0);
    }
    ImGui::NewLine();
  } else {
    ImGui::NewLine();
  }
  if (const auto current = c.cursor.current()) {
    ImGui::TextColored(palette().muted, "%s: %s", c.steps[*current].section.c_str(),
                       c.steps[*current].title.c_str());
  } else {
    ImGui::TextColored(palette().muted, "Right or PageDown: the first step; ? lists the keys");
  }
}

}  // namespace tl::ui
