#include "action_check.hpp"

#include <algorithm>

#include "app_state.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/color_scheme.hpp"
#include "core/launch_config.hpp"
#include "core/lessons/device_placeholders.hpp"
#include "core/plot/plot_quantity.hpp"
#include "lab/exercise_registry.hpp"
#include "lab_controller.hpp"
#include "lesson_views.hpp"

namespace tl::ui {

Status ActionChecker::check(const lessons::LessonAction& action) {
  const std::string id = action.lesson.value_or(
      lesson_id_.empty() ? std::string(compute::first_lesson_id()) : lesson_id_);
  if (!lesson_ || id != lesson_id_) {
    auto lesson = compute::make_lesson(id);
    if (!lesson) return lesson.status();
    lesson_ = std::move(*lesson);
    lesson_id_ = id;
  }
  // Device figures ({{device.sm_count}}) are checked by name and syntax, then filled as on an
  // H100, so that the lesson can check the values they become: the device is not known here.
  for (const auto& [key, value] : action.values) {
    const Status placeholders =
        lessons::check_device_placeholders(value, lessons::PlaceholderUse::kLink);
    if (!placeholders) return invalid_argument(key + "=" + value + ": " + placeholders.message());
  }
  auto filled = lessons::fill_action_placeholders(action, lessons::example_gpu_device_info());
  if (!filled) return filled.status();
  TL_RETURN_IF_ERROR(lesson_->configure(filled->values));
  if (action.color_by) {
    auto mode = parse_color_by(*action.color_by);
    if (!mode) return mode.status();
  }
  if (action.view) {
    const auto& tabs = lesson_views(lesson_->info()).tabs;
    const bool lesson_tab = std::any_of(tabs.begin(), tabs.end(),
                                        [&](const LessonTab& t) { return t.id == *action.view; });
    const bool workspace = *action.view == kLabView || *action.view == kLessonView;
    if (!lesson_tab && !workspace) {
      auto tab = parse_results_tab(*action.view);
      if (!tab) return tab.status();
    }
  }
  if (action.plot) {
    auto quantity = plot::parse_plot_quantity(*action.plot);
    if (!quantity) return quantity.status();
  }
  if (action.exercise) {
    exercise_ = lab::find_exercise(*action.exercise);
    if (exercise_ == nullptr) {
      return invalid_argument("exercise=" + *action.exercise + ": no such exercise");
    }
  }
  if (action.submission) {
    if (exercise_ == nullptr) {
      return invalid_argument("submission=" + *action.submission + " needs an exercise first");
    }
    if (*action.submission != "solution" &&
        find_known_wrong(*exercise_, *action.submission) == nullptr) {
      return invalid_argument("submission=" + *action.submission + ": " + exercise_->id +
                              " has no such known-wrong submission");
    }
  }
  if (action.lab_grid && *action.lab_grid != "auto" && !action.lab_grid->empty()) {
    auto grid = parse_dim3(*action.lab_grid);
    if (!grid || grid->x == 0 || grid->y == 0 || grid->z == 0) {
      return invalid_argument("lab_grid=" + *action.lab_grid +
                              ": expected a grid such as 4 or 8,8 (or auto)");
    }
  }
  if (action.pick) {
    auto cell = parse_dim3(*action.pick);
    if (!cell) return invalid_argument("pick=" + *action.pick + ": expected row,col");
  }
  return Status::ok();
}

Status ActionChecker::check_link(const std::string& link) {
  auto action = lessons::parse_lesson_action(link);
  if (!action) return action.status();
  return check(*action);
}

Status check_demo_script(const classroom::DemoScript& script) {
  ActionChecker checker;
  for (std::size_t i = 0; i < script.steps.size(); ++i) {
    const Status checked = checker.check(script.steps[i].action);
    if (!checked) {
      return Error{ErrorKind::kParseError, classroom::step_error(script, i, checked.message())};
    }
  }
  return Status::ok();
}

}  // namespace tl::ui
