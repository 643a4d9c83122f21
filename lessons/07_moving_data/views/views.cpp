// Registers the moving-data lesson's views (lesson_views.hpp): the pipeline's timeline (beside the
// mapping view: the copies and kernels over time are what this lesson is about), the copy curves,
// the mini-batches and unified memory, all from the last timed run's report.

#include "lesson_views.hpp"
#include "moving_data_panels.hpp"

namespace tl::lesson_modules {

namespace {
bool has_report(const ui::AppState& state) {
  return compute::moving_data_report(state.lesson_picture) != nullptr;
}
}  // namespace

const ui::LessonViews& lesson_views_07_moving_data() {
  static const ui::LessonViews kViews{
      .tabs = {{"streams", "Streams",
                "The pipeline's copies and kernels over time, per engine and per stream",
                &ui::moving_data_views::draw_timeline_panel, &has_report},
               {"copies", "Copies", "Copy bandwidth against size, pageable and pinned",
                &ui::moving_data_views::draw_copies_panel, &has_report},
               {"batches", "Batches", "Samples per second against batch size, GPU and CPU",
                &ui::moving_data_views::draw_batches_panel, &has_report},
               {"unified", "Unified", "The kernel over managed memory, with and without prefetch",
                &ui::moving_data_views::draw_unified_panel, &has_report}},
      .opens_on = "streams",
      .beside = "streams",
  };
  return kViews;
}

}  // namespace tl::lesson_modules
