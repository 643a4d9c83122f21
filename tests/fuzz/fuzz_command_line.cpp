// Every subcommand's argument parsing, through cli::check_command_line: what `threadlab ...` checks
// before it opens a device, a window, a worker or a file, without running the command. Whatever the
// arguments, the answer is 0 (it would run) or 2 with exactly one line, "threadlab: <reason>", on
// stderr; never a crash, a hang, an exception, another status or a reason that spans lines.

#include <cstdint>
#include <span>
#include <sstream>
#include <string>

#include "cli/cli.hpp"
#include "command_line_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> args =
      tl::fuzz::command_line_from_bytes(std::span<const std::uint8_t>(data, size));
  std::ostringstream out;
  std::ostringstream err;
  const int status = tl::cli::check_command_line(args, out, err);
  const std::string reason = err.str();
  if (status == tl::cli::kExitOk) {
    // A command line that would run has nothing to complain about.
    if (!reason.empty()) __builtin_trap();
    return 0;
  }
  if (status != tl::cli::kExitUsage) __builtin_trap();
  // One line: the prefix, a reason, one newline at the end and no control byte before it.
  if (!reason.starts_with("threadlab: ") || reason.back() != '\n') __builtin_trap();
  for (std::size_t i = 0; i + 1 < reason.size(); ++i) {
    const auto byte = static_cast<unsigned char>(reason[i]);
    if (byte < 0x20 || byte == 0x7f) __builtin_trap();
  }
  return 0;
}
