// Registers the precision lesson's views (lesson_views.hpp): the bits of a typed value in each
// format, and the timed run's error table.

#include "lesson_views.hpp"
#include "precision_panels.hpp"

namespace tl::lesson_modules {

namespace {
bool has_report(const ui::AppState& state) {
  return compute::precision_report(state.lesson_picture) != nullptr;
}
}  // namespace

const ui::LessonViews& lesson_views_08_precision() {
  static const ui::LessonViews kViews{
      .tabs = {{"bits", "Bits", "A value you type, in FP32, TF32, FP16 and BF16, bit by bit",
                &ui::precision_views::draw_bits_panel, nullptr},
               {"errors", "Errors",
                "The dot product and the matrix product in every format, against float64",
                &ui::precision_views::draw_errors_panel, &has_report}},
      .opens_on = "bits",
  };
  return kViews;
}

}  // namespace tl::lesson_modules
