#pragma once
// What a lesson adds to the window: its own results tabs (drawn by panels in its folder's views/),
// the picture it puts beside the mapping view, and what a click on an element of the mapping view
// means to it. The generic window knows lessons only through this; the list is generated from
// lessons/CMakeLists.txt, like the lesson registry.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/lessons/catalog.hpp"

namespace tl::ui {

class AppController;
struct AppState;
struct Fonts;

struct LessonTab {
  std::string_view id;  // what a lesson link's view=<id> names
  std::string_view label;
  std::string_view tooltip;
  void (*draw)(AppController& controller, const Fonts& fonts) = nullptr;
  // Whether it has something to show (null: always).
  bool (*ready)(const AppState& state) = nullptr;
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
  void (*pick_element)(AppController& controller, std::uint64_t row, std::uint64_t col) = nullptr;
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
