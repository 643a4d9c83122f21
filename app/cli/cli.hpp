#pragma once
// The command line: the same core, devices and renderer as the window, without one. Every failure
// ends in one line on stderr and a non-zero exit status: 2 for a bad command line, 1 for a request
// that could not be carried out (CUDA error, failed check, unwritable file).

#include <cstddef>
#include <functional>
#include <ostream>
#include <span>
#include <string>

#include "core/gui_launcher.hpp"
#include "core/result.hpp"

namespace tl::lab {
struct LessonKernelMemory;
}

namespace tl::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// `gui`, `demo`, `soak` and `bench --suite ui|perf` run the UI through `gui`: the app's entry
// points (core/gui_launcher.hpp), so that the command line does not depend on the UI.
// `render --memory-line`: one warp's request of a recorded kernel drawn as the Memory tab draws it
// (ui/memory_request_render.hpp, handed over by the app like the GuiLauncher's entry points):
// (kernel, source line, which of the line's requests, PNG path, width, height or 0 to fit) → what
// was drawn. Typed here, not in core/gui_launcher.hpp: its argument is the Lab's recording, which
// the core does not know.
using MemoryRequestRenderer = std::function<Result<std::string>(
    const lab::LessonKernelMemory& kernel, int line, std::size_t request, const std::string& path,
    int width, int height)>;
int run_cli(int argc, char** argv, const GuiLauncher& gui,
            const MemoryRequestRenderer& draw_memory = {});

// The command line `args` (without the program's name) parsed and checked as run_cli parses and
// checks it before running anything, and then not run: 0 where the command would start (--help and
// --version print to `out` and are 0 too), else 2 with the one-line reason on `err`. Nothing is
// opened or started: no device, no window, no worker, no file read or written. The command-line
// fuzzer (tests/fuzz/fuzz_command_line.cpp) calls it for every subcommand.
int check_command_line(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace tl::cli
