#pragma once
// What a lesson's own views (lessons/*/views/) may use of the window: the state the panels read,
// the status bar, the lesson's tabs, the picked element, the lesson's live work and the device it
// runs on. The AppController implements it; lesson views receive this and never the controller,
// so that a lesson's panels depend on nine calls and not on the launch machinery behind them.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "app_state.hpp"

// Declared only: a view that uses the device or a sink includes their headers itself, so that the
// views that do not are not rebuilt when those change.
namespace tl::compute {
class Device;
class FloatSink;
}  // namespace tl::compute
namespace tl::render {
class ClassMap;
}  // namespace tl::render

namespace tl::ui {

class LessonLiveWork;

class LessonViewContext {
 public:
  [[nodiscard]] virtual const AppState& state() const = 0;
  // A line on the status bar (kept in the message log).
  virtual void post(Severity severity, std::string text) = 0;
  // Brings one of the current lesson's own tabs to the front.
  virtual void show_lesson_tab(std::string_view id) = 0;
  // Where the lesson's views keep what they made of a picked element, until the next launch.
  virtual void set_lesson_pick(std::shared_ptr<compute::LessonAttachment> pick) = 0;
  [[nodiscard]] virtual compute::LessonAttachment* lesson_pick() = 0;
  // The current lesson's live work (LessonViews::make_live), or null.
  [[nodiscard]] virtual LessonLiveWork* lesson_live() = 0;
  // For a lesson's live work: the device the lessons run on (valid until the work is stopped, see
  // LessonLiveWork), the backend's sink into a class map (interop, copy or upload; `kind` names
  // another backend than the current one), and whether background measurements hold the device.
  [[nodiscard]] virtual compute::Device& lesson_device() = 0;
  [[nodiscard]] virtual std::unique_ptr<compute::FloatSink> make_class_map_sink(
      render::ClassMap& map, std::optional<BackendKind> kind = std::nullopt) const = 0;
  [[nodiscard]] virtual bool busy() const = 0;

 protected:
  ~LessonViewContext() = default;
};

}  // namespace tl::ui
