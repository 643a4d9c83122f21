#include "lesson_views.hpp"

namespace tl::ui {

const LessonViews& lesson_views(const lessons::LessonInfo& info) {
  for (const RegisteredLessonViews& registered : registered_lesson_views()) {
    if (registered.folder == info.folder) return registered.views();
  }
  static const LessonViews kNone;
  return kNone;
}

}  // namespace tl::ui
