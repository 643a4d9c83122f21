#pragma once
// The command line: the same core, devices and renderer as the window, without one. Every failure
// ends in one line on stderr and a non-zero exit status: 2 for a bad command line, 1 for a request
// that could not be carried out (CUDA error, failed check, unwritable file).

#include "core/gui_launcher.hpp"

namespace tl::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// `gui`, `demo`, `soak` and `bench --suite ui|perf` run the UI through `gui`: the app's entry
// points (core/gui_launcher.hpp), so that the command line does not depend on the UI.
int run_cli(int argc, char** argv, const GuiLauncher& gui);

}  // namespace tl::cli
