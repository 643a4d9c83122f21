#pragma once
// The command line: the same core, devices and renderer as the window, without one. Every failure
// ends in one line on stderr and a non-zero exit status: 2 for a bad command line, 1 for a request
// that could not be carried out (CUDA error, failed check, unwritable file).

#include <ostream>
#include <span>
#include <string>

#include "core/gui_launcher.hpp"

namespace tl::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// `gui`, `demo`, `soak` and `bench --suite ui|perf` run the UI through `gui`: the app's entry
// points (core/gui_launcher.hpp), so that the command line does not depend on the UI.
int run_cli(int argc, char** argv, const GuiLauncher& gui);

// The command line `args` (without the program's name) parsed and checked as run_cli parses and
// checks it before running anything, and then not run: 0 where the command would start (--help and
// --version print to `out` and are 0 too), else 2 with the one-line reason on `err`. Nothing is
// opened or started: no device, no window, no worker, no file read or written. The command-line
// fuzzer (tests/fuzz/fuzz_command_line.cpp) calls it for every subcommand.
int check_command_line(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace tl::cli
