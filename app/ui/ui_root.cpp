#include "ui_root.hpp"

#include "core/lessons/dense_layer.hpp"
#include "panels/panels.hpp"

namespace tl::ui {

void draw_ui(AppController& controller, const Fonts& fonts) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  constexpr ImGuiWindowFlags kRootFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoSavedSettings |
                                          ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("ThreadLab", nullptr, kRootFlags);
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 full = ImGui::GetContentRegionAvail();
  const float status_height = ImGui::GetFrameHeightWithSpacing();
  const float body_height = full.y - status_height;
  const float lesson_width = full.x * 0.32f;

  ImGui::BeginChild("lesson", {lesson_width, body_height}, true);
  draw_lesson_panel(controller, fonts);
  ImGui::EndChild();
  ImGui::SameLine();

  ImGui::BeginGroup();
  const float right_width = full.x - lesson_width - style.ItemSpacing.x;
  const float top_height = body_height * 0.58f;
  const float controls_width = right_width * 0.36f;
  ImGui::BeginChild("controls", {controls_width, top_height}, true);
  draw_launch_panel(controller, fonts);
  ImGui::Spacing();
  ImGui::Separator();
  draw_device_panel(controller, fonts);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("mapping", {right_width - controls_width - style.ItemSpacing.x, top_height},
                    true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw_mapping_panel(controller, fonts);
  ImGui::EndChild();
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
    if (ImGui::BeginTabItem("CPU vs GPU", nullptr, flags_for(ResultsTab::kTiming))) {
      draw_timing_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Grid of blocks", nullptr, flags_for(ResultsTab::kGrid))) {
      draw_grid_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (controller.state().controls.lesson_id == lessons::kMatmulId &&
        ImGui::BeginTabItem("Element reads", nullptr, flags_for(ResultsTab::kElementReads))) {
      draw_element_reads_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (controller.state().controls.lesson_id == lessons::kDenseLayerId &&
        ImGui::BeginTabItem("Layer", nullptr, flags_for(ResultsTab::kLayer))) {
      draw_layer_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Occupancy", nullptr, flags_for(ResultsTab::kOccupancy))) {
      draw_occupancy_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (!trace.blocks.empty() &&
        ImGui::BeginTabItem("SM timeline", nullptr, flags_for(ResultsTab::kTimeline))) {
      draw_sm_timeline_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  ImGui::EndGroup();

  draw_status_bar(controller, fonts);
  ImGui::End();
}

}  // namespace tl::ui
