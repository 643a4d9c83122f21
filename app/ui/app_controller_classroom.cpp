// AppController's classroom commands: guided steps, presenter mode, demo playback, screenshots.
// Kept apart from the launch and sweep machinery they drive.

#include <algorithm>
#include <cstdio>

#include "app_controller.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/classroom/screenshot_path.hpp"
#include "theme_keeper.hpp"

namespace tl::ui {
namespace {

// The lesson before or after `id` in the catalog.
std::optional<std::string> neighbour_lesson(const std::string& id, int direction) {
  const auto& lessons = lessons::catalog();
  auto it = std::find_if(lessons.begin(), lessons.end(),
                         [&](const lessons::LessonInfo& info) { return info.id == id; });
  if (it == lessons.end()) return std::nullopt;
  const auto i = it - lessons.begin() + direction;
  if (i < 0 || i >= static_cast<std::ptrdiff_t>(lessons.size())) return std::nullopt;
  return std::string(lessons[static_cast<std::size_t>(i)].id);
}

}  // namespace

void AppController::load_steps() {
  ClassroomState& c = state_.classroom;
  c.steps.clear();
  c.steps_error.clear();
  auto steps = classroom::collect_steps(state_.lesson.document);
  if (steps) {
    c.steps = std::move(*steps);
  } else {
    c.steps_error =
        "lessons/" + std::string(lesson().info().folder) + "/lesson.md, " + steps.message();
  }
  c.cursor = classroom::StepCursor(c.steps.size());
  ++c.step_moves;
}

void AppController::stop_background_work() {
  if (live_) live_->stop();
  if (launches_->stop_and_wait()) update();
}

void AppController::apply_step(std::size_t index) {
  ClassroomState& c = state_.classroom;
  if (index >= c.steps.size()) return;
  stop_background_work();
  const std::string action = c.steps[index].action;
  apply_lesson_action(action);
  c.cursor.go_to(index);
  ++c.step_moves;
  // Replaces whatever the status bar said about an earlier step.
  post(Severity::kInfo, c.cursor.progress_text() + ": " + c.steps[index].title);
}

void AppController::go_to_lesson_step(const std::string& lesson_id, bool at_last_step) {
  stop_background_work();
  if (!switch_lesson(lesson_id)) return;
  ClassroomState& c = state_.classroom;
  if (at_last_step && c.cursor.count() > 0) {
    apply_step(c.cursor.count() - 1);
  } else {
    launch();  // the new lesson's introduction, with its first picture
  }
}

void AppController::next_step() {
  if (state_.classroom.demo) {
    const DemoPlayback& demo = *state_.classroom.demo;
    const std::size_t next = demo.index ? *demo.index + 1 : 0;
    if (next < demo.script.steps.size()) {
      play_demo_step(next);
    } else {
      post(Severity::kInfo, "End of the demo; Left goes back, Esc leaves it.");
    }
    return;
  }
  ClassroomState& c = state_.classroom;
  classroom::StepCursor probe = c.cursor;
  if (probe.next()) {
    apply_step(*probe.current());
    return;
  }
  if (auto next = neighbour_lesson(state_.controls.lesson_id, +1)) {
    go_to_lesson_step(*next, /*at_last_step=*/false);
  } else {
    post(Severity::kInfo, "That was the last step of the last lesson.");
  }
}

void AppController::previous_step() {
  if (state_.classroom.demo) {
    const DemoPlayback& demo = *state_.classroom.demo;
    if (demo.index && *demo.index > 0) play_demo_step(*demo.index - 1);
    return;
  }
  ClassroomState& c = state_.classroom;
  classroom::StepCursor probe = c.cursor;
  if (probe.previous()) {
    if (probe.at_start()) {
      // Back to the introduction: nothing to set, the text goes back to the top.
      c.cursor = probe;
      ++c.step_moves;
    } else {
      apply_step(*probe.current());
    }
    return;
  }
  if (auto previous = neighbour_lesson(state_.controls.lesson_id, -1)) {
    go_to_lesson_step(*previous, /*at_last_step=*/true);
  }
}

void AppController::go_to_step(std::size_t index) {
  apply_step(index);
}

void AppController::set_presenter(bool on) {
  ClassroomState& c = state_.classroom;
  if (c.presenter == on) return;
  c.presenter = on;
  c.fullscreen = on;
  post(Severity::kInfo, on ? "Presenter mode: F5 or Esc leaves it; Right/Left walk the steps."
                           : "Presenter mode off.");
}

void AppController::set_presenter_scale(float scale) {
  state_.classroom.presenter_scale =
      std::clamp(scale, classroom::kMinPresenterScale, classroom::kMaxPresenterScale);
}

void AppController::scale_drawn(float asked, float drawn, float width, float height) {
  ClassroomState& c = state_.classroom;
  c.drawn_scale = drawn;
  std::string note;
  if (drawn > 0 && drawn + 0.01f < asked) {
    const float least_height = c.presenter ? kPresenterLeastHeightAtScale1 : kLeastHeightAtScale1;
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s at %.2f×, not the %.2f× asked: a %d × %d window holds no more (its panels "
                  "need %d × %d pixels at 1×)",
                  c.presenter ? "Presenter mode draws" : "Drawn", static_cast<double>(drawn),
                  static_cast<double>(asked), static_cast<int>(width), static_cast<int>(height),
                  static_cast<int>(kLeastWidthAtScale1), static_cast<int>(least_height));
    note = text;
  }
  if (note == c.scale_note) return;
  c.scale_note = std::move(note);
  // In presenter mode the status bar says it, with the way out its first message gave.
  if (c.presenter && !c.scale_note.empty()) {
    post(Severity::kInfo, c.scale_note + ". F5 or Esc leaves presenter mode.");
  }
}

void AppController::set_theme(classroom::Theme theme) {
  state_.classroom.theme = theme;
}

void AppController::start_demo(classroom::DemoScript script, bool timed_advance) {
  ClassroomState& c = state_.classroom;
  const bool presenter = script.presenter;
  c.demo = DemoPlayback{std::move(script), std::nullopt, std::nullopt, false, timed_advance};
  if (presenter) set_presenter(true);
  play_demo_step(0);
}

void AppController::play_demo_step(std::size_t index) {
  ClassroomState& c = state_.classroom;
  if (!c.demo || index >= c.demo->script.steps.size()) return;
  // The wait of the step being left must not run out while its work is stopped below.
  c.demo->ready_since.reset();
  stop_background_work();
  c.demo->index = index;
  c.demo->ready_since.reset();
  post(Severity::kInfo, "Demo step " + std::to_string(index + 1) + " of " +
                            std::to_string(c.demo->script.steps.size()));
  apply_action(c.demo->script.steps[index].action);
}

void AppController::set_demo_paused(bool paused) {
  if (!state_.classroom.demo) return;
  state_.classroom.demo->paused = paused;
  state_.classroom.demo->ready_since.reset();
}

void AppController::stop_demo() {
  if (!state_.classroom.demo) return;
  state_.classroom.demo.reset();
  post(Severity::kInfo, "Demo stopped; the app is yours.");
}

void AppController::advance_demo_when_due() {
  ClassroomState& c = state_.classroom;
  if (!c.demo || !c.demo->index || c.demo->paused || !c.demo->timed_advance) return;
  const classroom::DemoStep& step = c.demo->script.steps[*c.demo->index];
  if (!step.wait_seconds || busy()) return;
  const auto now = std::chrono::steady_clock::now();
  if (!c.demo->ready_since) {
    c.demo->ready_since = now;
    return;
  }
  const auto waited = std::chrono::duration<double>(now - *c.demo->ready_since).count();
  if (waited >= *step.wait_seconds && *c.demo->index + 1 < c.demo->script.steps.size()) {
    play_demo_step(*c.demo->index + 1);
  }
}

void AppController::request_screenshot(float width, float height) {
  const auto path = classroom::next_screenshot_path(classroom::default_screenshot_dir(),
                                                    std::chrono::system_clock::now());
  request_capture({path.string(), 0, 0, width, height});
}

classroom::Settings AppController::settings_to_save(int window_width, int window_height) const {
  classroom::Settings settings;
  settings.last_lesson = state_.controls.lesson_id;
  settings.presenter_scale = state_.classroom.presenter_scale;
  settings.theme = state_.classroom.theme;
  settings.window_width =
      std::clamp(window_width, classroom::kMinWindowSide, classroom::kMaxWindowSide);
  settings.window_height =
      std::clamp(window_height, classroom::kMinWindowSide, classroom::kMaxWindowSide);
  return settings;
}

}  // namespace tl::ui
