#pragma once
// Where the lesson workspace's panels go, computed from the room there is and what the panels
// need, before any of them is drawn. Pure arithmetic on pixel sizes (no ImGui calls), so the rules
// are tested on their own; ui_root.cpp measures the inputs and draws into the result.
//
// The rules, in order of priority: the caption gets its own strip under the panels; the mapping
// view never drops below a useful height (its header and a picture of a few lines); the results
// panel is only as tall as its content until it has a plot to show, then takes its share; the
// launch panel's Launch button lives in a footer that never scrolls away.

namespace tl::ui {

struct LessonLayoutInputs {
  float body_width = 0;  // the workspace below the tabs and above the status bar
  float body_height = 0;
  float text_line = 0;   // ImGui::GetTextLineHeightWithSpacing() at the current scale
  float frame_line = 0;  // ImGui::GetFrameHeightWithSpacing()
  float spacing_x = 0;   // style.ItemSpacing
  float spacing_y = 0;
  float padding_y = 0;  // style.WindowPadding.y
  bool presenting = false;
  float steps_height = 0;    // the guided steps' bar over the lesson text; 0 without steps
  float caption_height = 0;  // the demo caption's text, wrapped at the strip's width; 0 for none
  // The results panel has something tall to show (a plot, or a tab other than the empty timings);
  // false keeps it to `compact_results_height`.
  bool results_need_room = true;
  float compact_results_height = 0;
};

struct LessonLayout {
  float lesson_width = 0;
  float lesson_height = 0;  // the lesson text, under the steps' bar
  float right_width = 0;
  float controls_width = 0;
  float top_height = 0;      // the launch controls and the mapping view
  float results_height = 0;  // the tabbed results panel under them
  float caption_height = 0;  // the caption strip across the bottom; 0 when there is none
};

// The least height that still shows the mapping view usefully: its header (title, counts, legend)
// and a picture of a few lines.
float mapping_min_height(const LessonLayoutInputs& in);
// The least height of the results panel that shows a plot one can read.
float plot_results_min_height(const LessonLayoutInputs& in);

LessonLayout compute_lesson_layout(const LessonLayoutInputs& in);

}  // namespace tl::ui
