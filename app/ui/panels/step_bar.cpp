// Where the class is: "Step 3 of 9", one dot per step (click one to go there), the step's title,
// and Previous / Next for those without a clicker. While a demo script plays, its steps instead.

#include <functional>

#include "panels.hpp"

namespace tl::ui {
namespace {

struct Progress {
  std::size_t count = 0;
  std::optional<std::size_t> current;
  std::string label;                                 // "Step 3 of 9"
  std::function<std::string(std::size_t)> title_of;  // for the dots' tooltips
  std::function<void(std::size_t)> go_to;
};

// Filled dots for the steps done, a larger accent dot for the current one, rings for the rest;
// left out when they do not fit the line.
void draw_dots(const Progress& progress) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float radius = ImGui::GetFontSize() * 0.28f;
  const float pitch = radius * 3.0f;
  ImGui::SameLine(0, radius * 2);
  if (static_cast<float>(progress.count) * pitch > ImGui::GetContentRegionAvail().x) {
    ImGui::NewLine();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float y = origin.y + ImGui::GetTextLineHeight() * 0.5f;
  const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 accent = ImGui::GetColorU32(palette().link);
  for (std::size_t i = 0; i < progress.count; ++i) {
    const ImVec2 centre{origin.x + radius + pitch * static_cast<float>(i), y};
    if (progress.current == i) {
      draw->AddCircleFilled(centre, radius * 1.2f, accent);
    } else if (progress.current && i < *progress.current) {
      draw->AddCircleFilled(centre, radius, color);
    } else {
      draw->AddCircle(centre, radius, color, 0, 1.5f);
    }
    ImGui::SetCursorScreenPos({centre.x - pitch * 0.5f, origin.y});
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::InvisibleButton("##dot", {pitch, ImGui::GetTextLineHeight()})) progress.go_to(i);
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip("Step %zu: %s", i + 1, progress.title_of(i).c_str());
    }
    ImGui::PopID();
    ImGui::SameLine(0, 0);
  }
  ImGui::NewLine();
}

void draw_progress(AppController& controller, const Fonts& fonts, const Progress& progress,
                   const std::string& subtitle) {
  if (ImGui::ArrowButton("##previous_step", ImGuiDir_Left)) controller.previous_step();
  if (ImGui::IsItemHovered()) wrapped_tooltip("Previous step (Left, PageUp)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next_step", ImGuiDir_Right)) controller.next_step();
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("Next step (Right, PageDown): sets its controls and launches");
  }
  ImGui::SameLine();
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted(progress.label.c_str());
  ImGui::PopFont();
  draw_dots(progress);
  ImGui::TextColored(palette().muted, "%s", subtitle.c_str());
}

}  // namespace

void draw_step_bar(AppController& controller, const Fonts& fonts) {
  const ClassroomState& c = controller.state().classroom;
  if (c.demo) {
    const auto& steps = c.demo->script.steps;
    Progress progress{steps.size(), c.demo->index,
                      c.demo->index ? "Demo step " + std::to_string(*c.demo->index + 1) + " of " +
                                          std::to_string(steps.size())
                                    : "Demo",
                      [&steps](std::size_t i) { return steps[i].caption; },
                      [&controller](std::size_t i) { controller.play_demo_step(i); }};
    draw_progress(controller, fonts, progress,
                  c.demo->script.title.empty() ? c.demo->script.file : c.demo->script.title);
    return;
  }
  if (!c.steps_error.empty()) {
    ImGui::TextColored(palette().error, "Guided steps: %s", c.steps_error.c_str());
    return;
  }
  if (c.steps.empty()) return;
  Progress progress{c.steps.size(), c.cursor.current(), c.cursor.progress_text(),
                    [&c](std::size_t i) { return c.steps[i].title; },
                    [&controller](std::size_t i) { controller.go_to_step(i); }};
  const auto current = c.cursor.current();
  draw_progress(controller, fonts, progress,
                current ? classroom::step_heading(c.steps[*current])
                        : "Right or PageDown: the first step; ? lists the keys");
  // On the emulator, where this step's results differ from a GPU's (ui_root gives it a line).
  if (const lessons::EmulatorNote* note = controller.step_emulator_note()) {
    draw_emulator_note(*note);
  }
}

}  // namespace tl::ui
