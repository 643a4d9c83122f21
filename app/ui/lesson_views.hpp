#pragma once
// What a lesson adds to the window: its own results tabs (drawn by panels in its folder's views/),
// the picture it puts beside the mapping view, and what a click on an element of the mapping view
// means to it. The generic window knows lessons only through this; the list is generated from
// lessons/CMakeLists.txt, like the lesson registry.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/lessons/catalog.hpp"

namespace tl::ui {

class LessonViewContext;
struct AppState;
struct Fonts;

struct LessonTab {
  std::string_view id;  // what a lesson link's view=<id> names
  std::string_view label;
  std::string_view tooltip;
  void (*draw)(LessonViewContext& context, const Fonts& fonts) = nullptr;
  // Whether it has something to show (null: always).
  bool (*ready)(const AppState& state) = nullptr;
};

// Work a lesson's views keep going between frames (the capstone's training in the background):
// made by the controller when the lesson opens, updated once per frame on the UI thread (its GL
// context current) before the panels draw, stopped before the device is reset or replaced, and
// destroyed when the lesson closes. Panels reach it through LessonViewContext::lesson_live().
class LessonLiveWork {
 public:
  virtual ~LessonLiveWork() = default;
  // Collects what the background work made and hands new work out; never waits for it.
  virtual void update(LessonViewContext& context) = 0;
  // Whether background work holds the device (launches and sweeps wait for it).
  [[nodiscard]] virtual bool busy() const = 0;
  // Pauses the background work and waits for it to let go of the device.
  virtual void stop() = 0;
};

struct LessonViews {
  std::vector<LessonTab> tabs{};
  // The tab the lesson opens on (empty: the window's default).
  std::string_view opens_on{};
  // Drawn beside the mapping view, so the class sees both: kGridOfBlocks for the window's grid of
  // blocks, or one of `tabs` by id (shown once it is ready). Empty: the mapping view takes the
  // area.
  std::string_view beside{};
  // A click on element (row, col) of the mapping view (the matrix product: the reads of that
  // element). Null: the lesson has no use for a picked element.
  void (*pick_element)(LessonViewContext& context, std::uint64_t row, std::uint64_t col) = nullptr;
  // Its live work, if it has any (null: none).
  std::unique_ptr<LessonLiveWork> (*make_live)(LessonViewContext& context) = nullptr;
};

inline constexpr std::string_view kGridOfBlocks = "grid";

struct RegisteredLessonViews {
  std::string_view folder;  // the lesson's folder under lessons/
  const LessonViews& (*views)();
};

// Generated from lessons/CMakeLists.txt: the lessons that have a views/ folder.
std::span<const RegisteredLessonViews> registered_lesson_views();

// The views of the lesson `info` describes; an empty set for a lesson without views.
const LessonViews& lesson_views(const lessons::LessonInfo& info);

}  // namespace tl::ui
