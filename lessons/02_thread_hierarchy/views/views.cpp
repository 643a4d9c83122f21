// Registers the thread-hierarchy lesson's views (lesson_views.hpp): the grid of blocks, its warps
// and idle threads, sits beside the mapping view, since that is what this lesson is about.

#include "lesson_views.hpp"

namespace tl::lesson_modules {

const ui::LessonViews& lesson_views_02_thread_hierarchy() {
  static const ui::LessonViews kViews{.beside = ui::kGridOfBlocks};
  return kViews;
}

}  // namespace tl::lesson_modules
