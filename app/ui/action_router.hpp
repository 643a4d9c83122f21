#pragma once
// Where a lesson link ("threadlab:set?...", clicked in the lesson text or the step bar) and a demo
// script's step go: which commands they become, in which order, and what is refused with a
// message. The order is the point (a link to another lesson switches first and launches once, with
// the link's values; a sweep link draws its picture untimed and sweeps once the picture is there),
// so it lives here, apart from the commands themselves. The router knows the window only as an
// ActionTarget: the AppController is one, and the tests give a recording fake, so the routing is
// tested without a window, a GL context or a device.

#include <cstdint>
#include <string>
#include <string_view>

#include "app_state.hpp"
#include "core/color_scheme.hpp"
#include "core/device_info.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/plot/plot_quantity.hpp"
#include "core/result.hpp"

namespace tl::ui {

// What a link or a demo step can ask of the window.
class ActionTarget {
 public:
  // A line on the status bar: what a link asked for that could not be done, and why.
  virtual void post(Severity severity, std::string text) = 0;
  // The device a link's placeholders ({{device.sm_count}}) are filled from.
  [[nodiscard]] virtual const DeviceInfo& action_device() const = 0;
  [[nodiscard]] virtual const std::string& current_lesson_id() const = 0;
  // Makes `id` the current lesson without launching it; false when it already is or cannot be
  // (the target says why).
  virtual bool switch_lesson(const std::string& id) = 0;
  // Several values at once, validated together; false (and the target says why) when refused.
  virtual bool set_params(const lessons::ParamValues& values) = 0;
  // A link's values fitted to the device in use (the emulator runs a GPU-sized link smaller): the
  // target changes `values` and says what it changed.
  virtual void fit_link_values(lessons::ParamValues& values) = 0;
  virtual void set_color_by(ColorBy mode) = 0;
  virtual void set_plot_quantity(plot::PlotQuantity quantity) = 0;
  // Bring a tab or a workspace to the front.
  virtual void show_results(ResultsTab tab) = 0;
  virtual void show_lesson_tab(std::string_view id) = 0;
  virtual void show_workspace(Workspace workspace) = 0;
  // Whether the current lesson has a tab of its own with this id.
  [[nodiscard]] virtual bool has_lesson_tab(std::string_view id) const = 0;
  virtual void launch(bool timed) = 0;
  virtual void pick_element(std::uint64_t row, std::uint64_t col) = 0;
  // A sweep, started once the picture a launch just asked for is drawn (at once where none is
  // being drawn in the background).
  virtual void sweep_after_picture(SweepKind kind) = 0;
  // The Kernel Lab: open an exercise (false: none has that id), load a known-wrong submission (or
  // "solution"), set the grid (the problem with the text, empty if none), run once, check.
  virtual bool open_exercise(const std::string& id) = 0;
  virtual Status load_submission(const std::string& name) = 0;
  virtual std::string set_lab_grid(const std::string& text) = 0;
  virtual bool run_in_lab() = 0;    // false: the Lab is busy with a run or a check
  virtual bool check_in_lab() = 0;  // false: the Lab is checking already

 protected:
  ~ActionTarget() = default;
};

class ActionRouter {
 public:
  explicit ActionRouter(ActionTarget& target) : target_(target) {}

  // A link as written in the lesson text; false (with a message) when it does not parse.
  bool follow_link(const std::string& link);
  // The same, already parsed (a demo script's step).
  void apply(const lessons::LessonAction& action);
  // A view by the name a link or a demo uses: the window's workspaces ("lab", "lesson"), the
  // current lesson's own tabs, or the results tabs (parse_results_tab).
  Status show_view(const std::string& name);

 private:
  // The Kernel Lab's part of a link: open an exercise (the Lab comes to the front), check it.
  void apply_lab(const lessons::LessonAction& action);

  ActionTarget& target_;
};

}  // namespace tl::ui
