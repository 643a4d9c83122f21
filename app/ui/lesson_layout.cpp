#include "lesson_layout.hpp"

#include <algorithm>
#include <cmath>

namespace tl::ui {
namespace {

// The shares of a roomy window: the lesson text beside, the pictures over the results. Presenter
// mode gives the pictures and the plot more: the class looks at them, the teacher talks.
constexpr float kLessonShare = 0.32f;
constexpr float kPresenterLessonShare = 0.26f;
constexpr float kTopShare = 0.58f;
constexpr float kPresenterTopShare = 0.42f;
constexpr float kControlsShare = 0.36f;
// The caption is read from the back of the room, but never takes over the panels.
constexpr float kMaxCaptionShare = 0.25f;

}  // namespace

float mapping_min_height(const LessonLayoutInputs& in) {
  // Header: the title with the launch, the colour choice with the counts, the colour key (two
  // lines where they wrap); picture: four lines, enough to see blocks and hover one.
  return in.padding_y * 2 + in.frame_line + in.text_line * 3 + in.text_line * 4;
}

float plot_results_min_height(const LessonLayoutInputs& in) {
  // Tabs, the sweep buttons, the y-axis choice, then a plot of six lines with its axes' titles.
  return in.padding_y * 2 + in.frame_line * 3 + in.text_line * 6 + in.spacing_y;
}

LessonLayout compute_lesson_layout(const LessonLayoutInputs& in) {
  LessonLayout out;
  float main_height = in.body_height;
  if (in.caption_height > 0) {
    out.caption_height = std::floor(
        std::min(in.caption_height + in.padding_y * 2, in.body_height * kMaxCaptionShare));
    main_height -= out.caption_height + in.spacing_y;
  }
  out.lesson_width =
      std::floor(in.body_width * (in.presenting ? kPresenterLessonShare : kLessonShare));
  out.lesson_height = std::max(0.0f, main_height - in.steps_height);
  out.right_width = in.body_width - out.lesson_width - in.spacing_x;
  out.controls_width = std::floor(out.right_width * kControlsShare);

  const float mapping_min = mapping_min_height(in);
  if (!in.results_need_room) {
    // Nothing tall below: the results keep their few lines and the pictures take the rest.
    out.results_height = std::min(in.compact_results_height, main_height * 0.5f);
  } else {
    const float wanted_top = main_height * (in.presenting ? kPresenterTopShare : kTopShare);
    const float results_min = plot_results_min_height(in);
    const float room = main_height - in.spacing_y;
    float top = std::max(wanted_top, mapping_min);
    if (room - top < results_min) top = room - results_min;
    if (top < mapping_min) {
      // Both cannot have their least height: share what there is in proportion to it.
      top = room * mapping_min / (mapping_min + results_min);
    }
    out.results_height = room - top;
  }
  out.results_height = std::floor(out.results_height);
  out.top_height = main_height - out.results_height - in.spacing_y;
  return out;
}

}  // namespace tl::ui
