#include "action_router.hpp"

#include "core/launch_config.hpp"
#include "core/lessons/device_placeholders.hpp"

namespace tl::ui {

bool ActionRouter::follow_link(const std::string& link) {
  auto parsed = lessons::parse_lesson_action(link);
  if (!parsed) {
    target_.post(Severity::kError, parsed.message());
    return false;
  }
  apply(*parsed);
  return true;
}

void ActionRouter::apply(const lessons::LessonAction& parsed) {
  // Values such as grid={{device.sm_count*2}} are computed for the device in use.
  auto filled = lessons::fill_action_placeholders(parsed, target_.action_device());
  if (!filled) {
    target_.post(Severity::kError, filled.message());
    return;
  }
  lessons::LessonAction& action = *filled;
  // A link to another lesson switches first and launches once, with the link's values: launching
  // the new lesson's defaults first would keep the runner busy and refuse the link's own launch.
  bool switched = false;
  if (action.lesson) {
    switched = target_.switch_lesson(*action.lesson);
    if (target_.current_lesson_id() != *action.lesson) return;
  }
  // Fitted to the lesson the link is for, now current, and to the device in use.
  if (!action.values.empty()) target_.fit_link_values(action.values);
  if (!action.values.empty() && !target_.set_params(action.values)) {
    // The new lesson still gets its first picture, with its defaults, rather than the old one's.
    if (switched) target_.launch(/*timed=*/true);
    return;
  }
  if (action.color_by) {
    auto mode = parse_color_by(*action.color_by);
    if (mode) {
      target_.set_color_by(*mode);
    } else {
      target_.post(Severity::kWarning, mode.message());
    }
  }
  if (action.plot) {
    auto quantity = plot::parse_plot_quantity(*action.plot);
    if (quantity) {
      target_.set_plot_quantity(*quantity);
      target_.show_results(ResultsTab::kTiming);
    } else {
      target_.post(Severity::kWarning, quantity.message());
    }
  }
  if (action.view) {
    if (const Status shown = show_view(*action.view); !shown) {
      target_.post(Severity::kWarning, shown.message());
    }
  }
  // A sweep times every size itself, so a launch before it only draws the picture: its timed run
  // would keep the background runner busy and refuse the sweep.
  // A sweep link that changes the controls also redraws the picture, so that what is drawn
  // matches the controls the sweep runs with.
  const bool redraw = action.sweep && !action.values.empty();
  if (action.launch || switched || redraw) target_.launch(/*timed=*/!action.sweep);
  if (action.pick) {
    auto cell = parse_dim3(*action.pick);  // "row,col"
    if (cell) {
      target_.pick_element(cell->x, cell->y);
    } else {
      target_.post(Severity::kWarning, "pick=" + *action.pick + ": expected row,col");
    }
  }
  apply_lab(action);
  if (action.sweep) {
    // The sweep's curves are the point of such a link, unless it names a view of its own.
    if (!action.view && !action.plot) target_.show_results(ResultsTab::kTiming);
    // The link's picture may be tracing in the background: the sweep follows it.
    target_.sweep_after_picture(action.sweep_blocks ? SweepKind::kBlock : SweepKind::kSize);
  }
}

void ActionRouter::apply_lab(const lessons::LessonAction& action) {
  if (action.exercise) {
    if (target_.open_exercise(*action.exercise)) {
      target_.show_workspace(Workspace::kLab);
    } else {
      target_.post(Severity::kWarning, "exercise=" + *action.exercise + ": no such exercise");
    }
  }
  if (action.submission) {
    target_.show_workspace(Workspace::kLab);
    if (const Status loaded = target_.load_submission(*action.submission); !loaded) {
      target_.post(Severity::kWarning, loaded.message());
    }
  }
  if (action.lab_grid) {
    target_.show_workspace(Workspace::kLab);
    const std::string problem =
        target_.set_lab_grid(*action.lab_grid == "auto" ? std::string() : *action.lab_grid);
    if (!problem.empty()) {
      target_.post(Severity::kWarning, "lab_grid=" + *action.lab_grid + ": " + problem);
    }
  }
  if (action.run) {
    target_.show_workspace(Workspace::kLab);
    if (!target_.run_in_lab())
      target_.post(Severity::kWarning, "The Lab is busy with a run or a check.");
  }
  if (action.check) {
    target_.show_workspace(Workspace::kLab);
    if (!target_.check_in_lab()) target_.post(Severity::kWarning, "The Lab is checking already.");
  }
}

Status ActionRouter::show_view(const std::string& name) {
  if (name == kLabView) {
    target_.show_workspace(Workspace::kLab);
    return Status::ok();
  }
  if (name == kLessonView) {
    target_.show_workspace(Workspace::kLesson);
    return Status::ok();
  }
  if (target_.has_lesson_tab(name)) {
    target_.show_lesson_tab(name);
    return Status::ok();
  }
  auto tab = parse_results_tab(name);
  if (!tab) return tab.error();
  target_.show_results(*tab);
  return Status::ok();
}

}  // namespace tl::ui
