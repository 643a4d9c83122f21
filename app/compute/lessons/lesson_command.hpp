#pragma once
// A command of a lesson's own on the command line (`threadlab train ...`): the lesson parses its
// arguments and runs; the command line lists it, hands it what follows its name, and supplies what
// the lessons cannot link themselves (the PNG writer lives in the render layer). The CLI's exit
// statuses hold: 0 ok, 1 a failed run, 2 bad usage with a one-line reason.

#include <cstdint>
#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tl::compute {

struct LessonCommandContext {
  std::ostream& out;
  std::ostream& err;
  // Saves `rgba` (width × height × 4 bytes, top row first) as a PNG.
  std::function<Status(const std::string& path, int width, int height,
                       std::span<const std::uint8_t> rgba)>
      write_png;
  // Whether `out` is a terminal: a progress bar may redraw its line there.
  bool interactive = false;
};

struct LessonCommand {
  std::string_view name;     // the subcommand: "train"
  std::string_view summary;  // one line for `threadlab --help`
  // Runs with the arguments after the name (its own --help included); returns the exit status.
  int (*run)(std::span<const std::string> args, const LessonCommandContext& context) = nullptr;
  // Checks the same arguments as run would, opening nothing and running nothing: 0 when run would
  // start, else 2 with its one-line reason on `err` (cli::check_command_line, and its fuzzer).
  int (*check)(std::span<const std::string> args, std::ostream& err) = nullptr;
};

}  // namespace tl::compute
