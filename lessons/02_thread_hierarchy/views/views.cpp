// Registers the thread-hierarchy lesson's views (lesson_views.hpp): the grid of blocks, its warps
// and idle threads, sits beside the mapping view, since that is what this lesson is about; the
// divergence tab draws each warp's lanes at the divergence kernels' branch.

#include "divergence_panel.hpp"
#include "lesson_views.hpp"

namespace tl::lesson_modules {

const ui::LessonViews& lesson_views_02_thread_hierarchy() {
  static const ui::LessonViews kViews{
      .tabs = {{"divergence", "Divergence",
                "Each warp's lanes at the branch: which run, which wait for the other side",
                &ui::thread_hierarchy_views::draw_divergence_panel}},
      .beside = ui::kGridOfBlocks,
  };
  return kViews;
}

}  // namespace tl::lesson_modules
