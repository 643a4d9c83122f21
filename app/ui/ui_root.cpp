#include "ui_root.hpp"

#include <cmath>
#include <string>

#include "panels/panels.hpp"

namespace tl::ui {
namespace {

// A results tab with its tooltip (hovering the tab, open or not); true when it is open.
bool tab(const char* label, const char* tooltip, ImGuiTabItemFlags flags) {
  const bool open = ImGui::BeginTabItem(label, nullptr, flags);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  return open;
}

// The window's two workspaces: the lesson, and its Kernel Lab. Only the tabs are drawn here (the
// bodies follow outside the tab bar, so the lesson's panels keep their IDs); the Lab's label
// counts the lesson's exercises, with a fixed ID so the selection survives the count changing.
void draw_workspace_tabs(AppController& controller) {
  const ViewSettings& view = controller.state().view;
  // A request (a link's view=lab) selects its tab once; after that the user's clicks decide.
  const bool requested = view.workspace_requests != view.workspace_requests_shown;
  auto flags_for = [&](Workspace workspace) {
    return requested && view.workspace == workspace ? ImGuiTabItemFlags_SetSelected
                                                    : ImGuiTabItemFlags_None;
  };
  Workspace open = view.workspace;
  if (ImGui::BeginTabBar("workspace")) {
    if (tab("Lesson", "The lesson: its text, the launch controls, the mapping view and timings",
            flags_for(Workspace::kLesson))) {
      open = Workspace::kLesson;
      ImGui::EndTabItem();
    }
    const std::size_t exercises = controller.lab().state().lesson_exercises;
    const std::string label =
        "Kernel Lab" + (exercises > 0 ? " (" + std::to_string(exercises) + ")" : "") + "###lab";
    if (tab(label.c_str(),
            "Write the kernel yourself: hidden checks run it and show which thread went wrong",
            flags_for(Workspace::kLab))) {
      open = Workspace::kLab;
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  // The selection a request asks for shows from the next frame on.
  if (requested) {
    controller.workspace_request_shown();
  } else if (open != view.workspace) {
    controller.workspace_shown(open);
  }
}

}  // namespace

BesidePicture beside_picture(const AppState& state, const LessonViews& views) {
  if (views.beside == kGridOfBlocks) return {BesidePicture::Kind::kGrid, nullptr};
  for (const LessonTab& tab : views.tabs) {
    if (tab.id == views.beside && (tab.ready == nullptr || tab.ready(state))) {
      return {BesidePicture::Kind::kLessonTab, &tab};
    }
  }
  return {};
}

void draw_ui(AppController& controller, const Fonts& fonts) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  constexpr ImGuiWindowFlags kRootFlags =
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
      ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar;
  ImGui::Begin("ThreadLab", nullptr, kRootFlags);
  draw_menu_bar(controller, fonts);
  draw_workspace_tabs(controller);
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 full = ImGui::GetContentRegionAvail();
  const float status_height = ImGui::GetFrameHeightWithSpacing();
  const float body_height = full.y - status_height;
  if (controller.state().view.workspace == Workspace::kLab) {
    draw_lab_workspace(controller, fonts, {full.x, body_height});
    draw_status_bar(controller, fonts);
    ImGui::End();
    draw_caption_overlay(controller, fonts);
    draw_shortcuts_overlay(controller, fonts);
    return;
  }
  // Presenter mode gives the pictures and the plot the room: the class looks at them, the teacher
  // talks over the step.
  const bool presenting = controller.state().classroom.presenter;
  const float lesson_width = full.x * (presenting ? 0.26f : 0.32f);

  // The lesson column: where the class is in the guided steps, above the text that scrolls.
  ImGui::BeginGroup();
  const ClassroomState& classroom = controller.state().classroom;
  float steps_height = 0;
  if (!classroom.steps.empty() || !classroom.steps_error.empty() || classroom.demo) {
    steps_height = ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() +
                   style.WindowPadding.y * 2;
    ImGui::BeginChild("steps", {lesson_width, steps_height}, true,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    draw_step_bar(controller, fonts);
    ImGui::EndChild();
    steps_height += style.ItemSpacing.y;
  }
  ImGui::BeginChild("lesson", {lesson_width, body_height - steps_height}, true);
  if (presenting && classroom.cursor.current()) {
    draw_step_text(controller, fonts);  // the step alone, large: not a page to scroll
  } else {
    draw_lesson_panel(controller, fonts);
  }
  ImGui::EndChild();
  ImGui::EndGroup();
  ImGui::SameLine();

  ImGui::BeginGroup();
  const float right_width = full.x - lesson_width - style.ItemSpacing.x;
  const float top_height = body_height * (presenting ? 0.5f : 0.58f);
  const float controls_width = right_width * 0.36f;
  ImGui::BeginChild("controls", {controls_width, top_height}, true);
  draw_launch_panel(controller, fonts);
  // The device's table is for the desk; on the projector the status bar names the device.
  if (!controller.state().classroom.presenter) {
    ImGui::Spacing();
    ImGui::Separator();
    draw_device_panel(controller, fonts);
  }
  ImGui::EndChild();
  ImGui::SameLine();
  // The lesson's own picture takes a fixed share at the right of the mapping area, so the class
  // sees both the threads' work and what the lesson computes, whatever tab is open below.
  const LessonViews& lesson_views = controller.views();
  const BesidePicture beside = beside_picture(controller.state(), lesson_views);
  const bool has_beside = beside.kind != BesidePicture::Kind::kNone;
  const float mapping_area = right_width - controls_width - style.ItemSpacing.x;
  const float beside_width = has_beside ? std::floor(mapping_area * kBesidePictureShare) : 0.0f;
  const float mapping_width =
      !has_beside ? mapping_area : mapping_area - beside_width - style.ItemSpacing.x;
  ImGui::BeginChild("mapping", {mapping_width, top_height}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw_mapping_panel(controller, fonts);
  ImGui::EndChild();
  if (has_beside) {
    ImGui::SameLine();
    const bool lesson_tab = beside.kind == BesidePicture::Kind::kLessonTab;
    ImGui::BeginChild(lesson_tab ? "lesson_beside" : "grid_beside", {beside_width, top_height},
                      true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    if (lesson_tab) {
      beside.tab->draw(controller, fonts);
    } else {
      draw_grid_panel(controller, fonts);
    }
    ImGui::EndChild();
  }
  ImGui::BeginChild("timing", {right_width, body_height - top_height - style.ItemSpacing.y}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // The SM timeline shares the space with the timing plot: both answer "how did it run?".
  if (ImGui::BeginTabBar("results")) {
    // A lesson link (view=...) or a new GPU launch with measured blocks brings a tab to the front,
    // once; after that the user's clicks decide.
    static std::uint64_t handled_requests = 0;
    static std::uint64_t shown_launch = 0;
    const ViewSettings& view = controller.state().view;
    const TraceView& trace = controller.state().trace;
    std::optional<ResultsTab> bring_forward;
    if (view.results_tab_requests != handled_requests) {
      bring_forward = view.results_tab;
      handled_requests = view.results_tab_requests;
    } else if (trace.timeline.measured && trace.launch_number != shown_launch) {
      bring_forward = ResultsTab::kTimeline;
    }
    if (trace.timeline.measured) shown_launch = trace.launch_number;
    auto flags_for = [&](ResultsTab tab) {
      return bring_forward == tab ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
    };
    if (tab("CPU vs GPU", "Timings over sizes or block sizes: CPU, GPU kernel and GPU end to end",
            flags_for(ResultsTab::kTiming))) {
      draw_timing_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (tab("Grid of blocks", "The launch's grid: its blocks, their warps and idle threads",
            flags_for(ResultsTab::kGrid))) {
      draw_grid_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    // The lesson's own tabs, between the window's general ones and the device's.
    for (const LessonTab& lesson_tab : lesson_views.tabs) {
      const std::string label(lesson_tab.label);
      const std::string tooltip(lesson_tab.tooltip);
      const bool forward = bring_forward == ResultsTab::kLesson && view.lesson_tab == lesson_tab.id;
      if (tab(label.c_str(), tooltip.c_str(),
              forward ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None)) {
        lesson_tab.draw(controller, fonts);
        ImGui::EndTabItem();
      }
    }
    if (tab("Occupancy", "How many blocks of this kernel fit on one SM, and what limits them",
            flags_for(ResultsTab::kOccupancy))) {
      draw_occupancy_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (!trace.blocks.empty() &&
        tab("SM timeline", "Which SM ran each block, and when: the waves and the tail",
            flags_for(ResultsTab::kTimeline))) {
      draw_sm_timeline_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  ImGui::EndGroup();

  draw_status_bar(controller, fonts);
  ImGui::End();
  draw_caption_overlay(controller, fonts);
  draw_shortcuts_overlay(controller, fonts);
}

}  // namespace tl::ui
