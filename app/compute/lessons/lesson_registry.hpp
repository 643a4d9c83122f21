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
#include <string>
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

// A flag a command has of its own ("width" for `threadlab render --width`), which no lesson
// parameter may become: a lesson's parameters are added to the launching commands as flags, and
// two options of one name would make the command line unbuildable (CLI11 throws while the
// commands are set up, before anything could say why).
struct ReservedFlag {
  std::string name;     // without "--": "width"
  std::string command;  // the command that has it: "render"
};

// The flags a parameter becomes on the command line, without "--": its name as written and
// hyphenated ("grid_stride", "grid-stride"), and for a yes/no parameter "no-grid-stride" too.
// Its aliases are not among them: where a command has a flag of an alias's name, the command's
// own option wins and the alias is left out of that command only (its other spellings stay).
[[nodiscard]] std::vector<std::string> param_flag_names(const lessons::ParamSpec& spec);

// Refuses a lesson a parameter of which would become one of `reserved`, with a message that names
// the lesson, the parameter, the flag and the command that has it. An error value, never a throw:
// the command line refuses to start on it (exit 2) and the tests hold every registered lesson to
// it.
[[nodiscard]] Status check_param_flags(const LessonModule& module,
                                       std::span<const ReservedFlag> reserved);
// The same for each of `modules`: the first refusal.
[[nodiscard]] Status check_param_flags(std::span<const LessonModule* const> modules,
                                       std::span<const ReservedFlag> reserved);

}  // namespace tl::compute

namespace tl::lessons {

// The registered lessons' descriptions, in teaching order.
const std::vector<LessonInfo>& catalog();
std::optional<LessonInfo> find_lesson(std::string_view id);

}  // namespace tl::lessons
