// ThreadLab: the command line and, without a subcommand, the window.

#include "cli/cli.hpp"
#include "ui/app_shell.hpp"

int main(int argc, char** argv) {
  return tl::cli::run_cli(argc, argv, {.run = tl::ui::run_app});
}
