#include "lesson_registry.hpp"

#include <algorithm>
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

std::vector<std::string> param_flag_names(const lessons::ParamSpec& spec) {
  std::string hyphenated = spec.name;
  std::replace(hyphenated.begin(), hyphenated.end(), '_', '-');
  std::vector<std::string> names{spec.name};
  if (hyphenated != spec.name) names.push_back(hyphenated);
  if (spec.kind == lessons::ParamKind::kFlag) names.push_back("no-" + hyphenated);
  return names;
}

Status check_param_flags(const LessonModule& module, std::span<const ReservedFlag> reserved) {
  const std::string lesson =
      "lesson " + std::to_string(module.info.number) + " (" + std::string(module.info.id) + ")";
  if (module.make == nullptr) return invalid_argument(lesson + " registers no make()");
  const std::unique_ptr<Lesson> made = module.make();
  if (made == nullptr) return invalid_argument(lesson + "'s make() gave no lesson");
  for (const lessons::ParamSpec& spec : made->params()) {
    for (const std::string& flag : param_flag_names(spec)) {
      const auto clash = std::find_if(reserved.begin(), reserved.end(),
                                      [&](const ReservedFlag& r) { return r.name == flag; });
      if (clash == reserved.end()) continue;
      return invalid_argument(
          lesson + ": parameter '" + spec.name + "' would be the flag --" + flag +
          ", which `threadlab " + clash->command +
          "` has of its own; rename the parameter (docs/ADDING_A_LESSON.md: the "
          "reserved names)");
    }
  }
  return Status::ok();
}

Status check_param_flags(std::span<const LessonModule* const> modules,
                         std::span<const ReservedFlag> reserved) {
  for (const LessonModule* module : modules) {
    if (Status checked = check_param_flags(*module, reserved); !checked) return checked;
  }
  return Status::ok();
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
