#include "lesson_registry.hpp"

#include <string>

namespace tl::compute {

const LessonModule* find_lesson_module(std::string_view id) {
  for (const LessonModule* module : registered_lessons()) {
    if (module->info.id == id) return module;
  }
  return nullptr;
}

Result<std::unique_ptr<Lesson>> make_lesson(std::string_view id) {
  const LessonModule* module = find_lesson_module(id);
  if (module == nullptr) {
    std::string known;
    for (const LessonModule* m : registered_lessons()) {
      known += (known.empty() ? "" : ", ") + std::string(m->info.id);
    }
    return invalid_argument("unknown lesson '" + std::string(id) + "' (lessons: " + known + ")");
  }
  return module->make();
}

std::string_view first_lesson_id() {
  const auto all = registered_lessons();
  return all.empty() ? std::string_view{} : all.front()->info.id;
}

}  // namespace tl::compute

namespace tl::lessons {

const std::vector<LessonInfo>& catalog() {
  static const std::vector<LessonInfo> kCatalog = [] {
    std::vector<LessonInfo> infos;
    for (const compute::LessonModule* module : compute::registered_lessons()) {
      infos.push_back(module->info);
    }
    return infos;
  }();
  return kCatalog;
}

std::optional<LessonInfo> find_lesson(std::string_view id) {
  const compute::LessonModule* module = compute::find_lesson_module(id);
  if (module == nullptr) return std::nullopt;
  return module->info;
}

}  // namespace tl::lessons
