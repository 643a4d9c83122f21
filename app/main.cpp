// ThreadLab: the command line and, without a subcommand, the window.

#include "cli/cli.hpp"
#include "ui/app_shell.hpp"
#include "ui/frame_benchmark.hpp"
#include "ui/memory_request_render.hpp"
#include "ui/soak_runner.hpp"

int main(int argc, char** argv) {
  return tl::cli::run_cli(argc, argv,
                          {.run = tl::ui::run_app,
                           .measure_frames = tl::ui::measure_ui_frames,
                           .soak = tl::ui::run_soak},
                          tl::ui::render_memory_request);
}
