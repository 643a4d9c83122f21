#include "ui_root.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lesson_layout.hpp"
#include "panels/panels.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui {
namespace {

// The most of the launch panel (under its fields, over its footer) the timed run's table takes.
constexpr float kReportShare = 0.66f;

// A results tab with its tooltip (hovering the tab, open or not); true when it is open.
bool tab(const char* label, const char* tooltip, ImGuiTabItemFlags flags) {
  const bool open = ImGui::BeginTabItem(label, nullptr, flags);
  if (ImGui::IsItemHovered()) wrapped_tooltip("%s", tooltip);
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

// The demo caption's height at `width`, in the heading font it is drawn in; 0 when none plays.
float caption_text_height(const AppController& controller, const Fonts& fonts, float width) {
  const std::string caption = controller.state().classroom.caption();
  if (caption.empty()) return 0.0f;
  ImGui::PushFont(fonts.heading);
  const float height = ImGui::CalcTextSize(caption.c_str(), nullptr, false, width).y;
  ImGui::PopFont();
  return height;
}

// The results panel has something tall to show: a plot (or a sweep under way), or any tab but the
// timings' (the grid, occupancy, the lesson's own); only the empty timings tab is a few lines.
bool results_need_room(const AppState& state, bool timing_tab_open) {
  return !timing_tab_open || has_plot(state.timing);
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
  const ClassroomState& classroom = controller.state().classroom;
  const bool presenting = classroom.presenter;

  // Which results tab was open last frame decides whether the panel needs room this frame (the
  // tab bar is drawn after the layout is fixed). Only UI state, kept in this ImGui context's root
  // window with the tab requests already handled: statics would outlive the window's controller
  // (the tests make several in one process) and carry one's tabs into the next.
  ImGuiStorage* const ui_memory = ImGui::GetStateStorage();
  const ImGuiID timing_tab_open_id = ImGui::GetID("timing_tab_open");
  const ImGuiID handled_requests_id = ImGui::GetID("handled_tab_requests");
  const ImGuiID settling_id = ImGui::GetID("results_tab_settling");
  const ImGuiID shown_launch_id = ImGui::GetID("timeline_shown_launch");
  bool timing_tab_open = ui_memory->GetBool(timing_tab_open_id, true);
  LessonLayoutInputs in;
  in.body_width = full.x;
  in.body_height = body_height;
  in.text_line = ImGui::GetTextLineHeightWithSpacing();
  in.frame_line = ImGui::GetFrameHeightWithSpacing();
  in.spacing_x = style.ItemSpacing.x;
  in.spacing_y = style.ItemSpacing.y;
  in.padding_y = style.WindowPadding.y;
  in.presenting = presenting;
  in.caption_height = caption_text_height(controller, fonts, full.x - style.WindowPadding.x * 2);
  in.results_need_room = results_need_room(controller.state(), timing_tab_open);
  // The tabs, the sweep buttons (wrapping once where the panel is narrow) and the two-line hint.
  in.compact_results_height =
      style.WindowPadding.y * 2 + in.frame_line * 3 + in.text_line * 2 + style.ItemSpacing.y;
  const bool has_steps =
      !classroom.steps.empty() || !classroom.steps_error.empty() || classroom.demo;
  // A line more while the emulator's note for the current step shows under its title.
  const bool step_note = !classroom.demo && controller.step_emulator_note() != nullptr;
  const float steps_child_height =
      has_steps
          ? in.frame_line + in.text_line * (step_note ? 2.0f : 1.0f) + style.WindowPadding.y * 2
          : 0.0f;
  in.steps_height = has_steps ? steps_child_height + style.ItemSpacing.y : 0.0f;
  const LessonLayout layout = compute_lesson_layout(in);

  if (controller.state().view.workspace == Workspace::kLab) {
    const float caption = layout.caption_height > 0 ? layout.caption_height + in.spacing_y : 0;
    draw_lab_workspace(controller, fonts, {full.x, body_height - caption});
    if (layout.caption_height > 0)
      draw_caption_strip(controller, fonts, {full.x, layout.caption_height});
    draw_status_bar(controller, fonts);
    ImGui::End();
    draw_shortcuts_overlay(controller, fonts);
    draw_switch_offer(controller, fonts);
    return;
  }
  const float lesson_width = layout.lesson_width;

  // The lesson column: where the class is in the guided steps, above the text that scrolls.
  ImGui::BeginGroup();
  if (has_steps) {
    ImGui::BeginChild("steps", {lesson_width, steps_child_height}, true,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    draw_step_bar(controller, fonts);
    ImGui::EndChild();
  }
  ImGui::BeginChild("lesson", {lesson_width, layout.lesson_height}, true);
  if (presenting && classroom.cursor.current()) {
    draw_step_text(controller, fonts);  // the step alone, large: not a page to scroll
  } else {
    draw_lesson_panel(controller, fonts);
  }
  ImGui::EndChild();
  ImGui::EndGroup();
  ImGui::SameLine();

  ImGui::BeginGroup();
  const float right_width = layout.right_width;
  const float top_height = layout.top_height;
  const float controls_width = layout.controls_width;
  ImGui::BeginChild("controls", {controls_width, top_height}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // The fields, notes and results scroll; Launch stays put in the footer under them, so it is
  // never pushed out of sight and does not move as notes come and go.
  const float footer_height = launch_footer_height(fonts);
  // The timed run's table under the fields, in a region of its own: as tall as it was last frame
  // (its rows, notes and the counters), up to a share of the panel that leaves the fields a few
  // lines; the rest scrolls there. A lesson with many fields (the reductions' seven) no longer
  // pushes the table's rows out of sight. In presenter mode with a plot, the table stands beside
  // the plot instead (timing_panel.cpp), where there is room for its rows at a projector's scale,
  // and the fields have this panel.
  const bool report_beside_plot =
      presenting && timing_tab_open && has_plot(controller.state().timing);
  const ImGuiID report_height_id = ImGui::GetID("launch_report_height");
  const float room = ImGui::GetContentRegionAvail().y - footer_height;
  const float fields_least = ImGui::GetFrameHeightWithSpacing() * 4;
  // At least a pixel: drawn even when empty, to measure what it needs for the next frame.
  const float report_height =
      std::max(1.0f, std::floor(std::min({ui_memory->GetFloat(report_height_id, 0.0f),
                                          room * kReportShare, room - fields_least})));
  const float under_fields = report_beside_plot ? 0.0f : report_height + style.ItemSpacing.y;
  ImGui::BeginChild("launch_fields", {0, -(footer_height + under_fields)}, false);
  draw_launch_panel(controller, fonts);
  // The device's table is for the desk; on the projector the status bar names the device.
  if (!presenting) {
    ImGui::Spacing();
    ImGui::Separator();
    draw_device_panel(controller, fonts);
  }
  ImGui::EndChild();
  if (!report_beside_plot) {
    ImGui::BeginChild("launch_report", {0, report_height}, false);
    draw_launch_report(controller);
    ui_memory->SetFloat(report_height_id,
                        ImGui::GetCursorPosY() - style.ItemSpacing.y + style.WindowPadding.y);
    ImGui::EndChild();
  }
  ImGui::BeginChild("launch_footer", {0, 0}, false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw_launch_footer(controller, fonts);
  ImGui::EndChild();
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
      // The lessons' own views: their sentences wrap at the panel's edge, at words.
      ImGui::PushTextWrapPos(0.0f);
      beside.tab->draw(controller, fonts);
      ImGui::PopTextWrapPos();
    } else {
      draw_grid_panel(controller, fonts, /*titled=*/true);
    }
    ImGui::EndChild();
  }
  ImGui::BeginChild("timing", {right_width, layout.results_height}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // The SM timeline shares the space with the timing plot: both answer "how did it run?".
  if (ImGui::BeginTabBar("results")) {
    // A lesson link (view=...) or a new GPU launch with measured blocks brings a tab to the front,
    // once; after that the user's clicks decide.
    const ViewSettings& view = controller.state().view;
    const TraceView& trace = controller.state().trace;
    // Counters compared for equality only: their low 32 bits are enough.
    const int requests = static_cast<int>(view.results_tab_requests);
    const int launch_number = static_cast<int>(trace.launch_number);
    std::optional<ResultsTab> bring_forward;
    if (requests != ui_memory->GetInt(handled_requests_id, 0)) {
      bring_forward = view.results_tab;
      ui_memory->SetInt(handled_requests_id, requests);
    } else if (trace.timeline.measured && launch_number != ui_memory->GetInt(shown_launch_id, 0)) {
      bring_forward = ResultsTab::kTimeline;
    }
    if (trace.timeline.measured) ui_memory->SetInt(shown_launch_id, launch_number);
    auto flags_for = [&](ResultsTab tab) {
      return bring_forward == tab ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
    };
    // The tab open in this frame, to tell the state when the user clicked another one.
    std::optional<ResultsTab> open_tab;
    std::string open_lesson_tab;
    auto opened = [&](ResultsTab tab) { open_tab = tab; };
    timing_tab_open = false;
    if (tab("CPU vs GPU", "Timings over sizes or block sizes: CPU, GPU kernel and GPU end to end",
            flags_for(ResultsTab::kTiming))) {
      opened(ResultsTab::kTiming);
      timing_tab_open = true;
      draw_timing_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (tab("Roofline",
            "Each timed kernel at its FLOP per byte and FLOP/s, under the device's bandwidth "
            "slope and compute ceilings, with its share of its own ceiling",
            flags_for(ResultsTab::kRoofline))) {
      opened(ResultsTab::kRoofline);
      draw_roofline_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (tab("Memory",
            "How each warp's loads and stores reach memory, per source line of the kernel: "
            "sectors per request and bank conflicts (the emulator's model, under Nsight "
            "Compute's names), and one warp's 32 lanes drawn onto the sectors or banks they touch",
            flags_for(ResultsTab::kMemory))) {
      opened(ResultsTab::kMemory);
      draw_memory_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (tab("Compiled",
            "What nvcc made of the lesson's kernels: registers, shared and local memory, spills, "
            "and each source line beside the SASS instructions made from it (no GPU needed)",
            flags_for(ResultsTab::kCompiled))) {
      opened(ResultsTab::kCompiled);
      draw_compiled_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (tab("Grid of blocks", "The launch's grid: its blocks, their warps and idle threads",
            flags_for(ResultsTab::kGrid))) {
      opened(ResultsTab::kGrid);
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
        opened(ResultsTab::kLesson);
        open_lesson_tab = std::string(lesson_tab.id);
        ImGui::PushTextWrapPos(0.0f);  // as beside the mapping view
        lesson_tab.draw(controller, fonts);
        ImGui::PopTextWrapPos();
        ImGui::EndTabItem();
      }
    }
    if (tab("Occupancy", "How many blocks of this kernel fit on one SM, and what limits them",
            flags_for(ResultsTab::kOccupancy))) {
      opened(ResultsTab::kOccupancy);
      draw_occupancy_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    if (!trace.blocks.empty() &&
        tab("SM timeline", "Which SM ran each block, and when: the waves and the tail",
            flags_for(ResultsTab::kTimeline))) {
      opened(ResultsTab::kTimeline);
      draw_sm_timeline_panel(controller, fonts);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    // A tab brought forward shows from the next frame on; in this frame and that one the open tab
    // is the old one. Past them, a different open tab is the user's click: the state follows it
    // (a presenter's class then shows the same tab).
    const bool settling = bring_forward.has_value() || ui_memory->GetBool(settling_id, false);
    ui_memory->SetBool(settling_id, bring_forward.has_value());
    if (!settling && open_tab &&
        (*open_tab != view.results_tab ||
         (*open_tab == ResultsTab::kLesson && open_lesson_tab != view.lesson_tab))) {
      controller.results_tab_shown(*open_tab, open_lesson_tab);
    }
  }
  ui_memory->SetBool(timing_tab_open_id, timing_tab_open);
  ImGui::EndChild();
  ImGui::EndGroup();
  // The caption has its own strip under the panels: it never covers the plot's axis.
  if (layout.caption_height > 0)
    draw_caption_strip(controller, fonts, {full.x, layout.caption_height});

  draw_status_bar(controller, fonts);
  ImGui::End();
  draw_shortcuts_overlay(controller, fonts);
  draw_switch_offer(controller, fonts);
}

}  // namespace tl::ui
