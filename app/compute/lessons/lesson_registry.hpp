#pragma once
// The registered lessons. A lesson is a module: one folder under lessons/ that holds its text, its
// C++ (parameters, runner, CPU reference and check, report), its views and its demo links, and
// registers with one line in lessons/CMakeLists.txt. The build generates the list behind
// registered_lessons() from that line, so the window, the commands and the generic test suites
// find every lesson here and nothing else in the app names one. docs/ADDING_A_LESSON.md walks
// through adding one.

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_benchmark.hpp"
#include "compute/lessons/lesson_command.hpp"
#include "core/lessons/catalog.hpp"
#include "core/lessons/emulator_note.hpp"
#include "core/result.hpp"

namespace tl::compute {

// What a lesson module gives the app: who it is, a fresh lesson at its defaults, and, if it has
// any, its comparisons for the benchmark suites and a command of its own (`threadlab train`).
struct LessonModule {
  lessons::LessonInfo info;
  std::unique_ptr<Lesson> (*make)() = nullptr;
  LessonBenchmark benchmark = nullptr;
  const LessonCommand* command = nullptr;
  // Where the lesson's results on the CPU emulator differ from a GPU's, and why
  // (core/lessons/emulator_note.hpp): shown only when a run is on the emulator.
  std::span<const lessons::EmulatorNote> emulator_notes{};
};

// Every registered lesson, in the order of lessons/CMakeLists.txt (generated at configure time).
std::span<const LessonModule* const> registered_lessons();

// The module registered as `id`, or null.
[[nodiscard]] const LessonModule* find_lesson_module(std::string_view id);

// The lesson `id` ready to configure, or an error naming the lessons that exist.
Result<std::unique_ptr<Lesson>> make_lesson(std::string_view id);

// The lesson the app opens on first: the first one registered.
[[nodiscard]] std::string_view first_lesson_id();

}  // namespace tl::compute

namespace tl::lessons {

// The registered lessons' descriptions, in teaching order.
const std::vector<LessonInfo>& catalog();
std::optional<LessonInfo> find_lesson(std::string_view id);

}  // namespace tl::lessons
