#pragma once
// What classroom mode shows: the lesson's guided steps and where the class is in them, presenter
// mode, the demo script being played and its caption. Plain data, like the rest of AppState.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/classroom/demo_script.hpp"
#include "core/classroom/guided_steps.hpp"
#include "core/classroom/settings.hpp"

namespace tl::ui {

struct DemoPlayback {
  classroom::DemoScript script;
  std::optional<std::size_t> index;  // the step on screen
  // When the step's measurements finished: its wait counts from there, so a slow sweep is seen
  // for as long as a quick launch.
  std::optional<std::chrono::steady_clock::time_point> ready_since;
  bool paused = false;        // waits stop counting while paused (the Demo menu)
  bool timed_advance = true;  // false headless: each step ends when its picture is saved
};

struct ClassroomState {
  std::vector<classroom::GuidedStep> steps;
  classroom::StepCursor cursor;
  std::string steps_error;       // why the lesson's steps could not be read
  std::uint64_t step_moves = 0;  // counts moves, so the lesson panel scrolls to a new step once

  bool presenter = false;  // large fonts, high contrast, full screen, advanced controls hidden
  float presenter_scale = 1.5f;
  classroom::Theme theme = classroom::Theme::kDark;  // outside presenter mode
  // The UI scale the window draws at (the monitor's × the presenter factor, at most what the
  // window holds: theme_keeper.hpp) and, where it holds less than asked, why: the View menu shows
  // it, and presenter mode says it in the status bar. 0 and empty before the first frame.
  float drawn_scale = 0;
  std::string scale_note;
  bool fullscreen = false;      // asked for (F11, or presenter mode in a window)
  bool show_shortcuts = false;  // the keyboard overlay

  std::optional<DemoPlayback> demo;

  // The theme drawn now: presenter mode is always high contrast, for a projector.
  [[nodiscard]] classroom::Theme shown_theme() const {
    return presenter ? classroom::Theme::kHighContrast : theme;
  }
  // The UI scale on top of the monitor's: the font atlas is rebuilt when it changes.
  [[nodiscard]] float scale_factor() const { return presenter ? presenter_scale : 1.0f; }
  // The caption over the app: the demo step's, when one is playing.
  [[nodiscard]] std::string caption() const {
    if (!demo || !demo->index) return {};
    return demo->script.steps[*demo->index].caption;
  }
};

}  // namespace tl::ui
