#pragma once
// Runs the built `threadlab` binary as a child process and captures what a user would see: its
// exit status, its stdout and its stderr. The CLI tests go through the real executable (not
// run_cli() in-process) so that argument parsing, exit codes and crashes are tested exactly as a
// shell or a script meets them.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tl::cli_test {

struct ProcessResult {
  bool spawned = false;     // false: the binary could not be started (see spawn_error)
  std::string spawn_error;  // why, when !spawned
  bool exited = false;      // the process returned from main or called exit()
  int exit_code = -1;       // valid when exited
  int term_signal = 0;      // the signal that killed it, when !exited (a crash)
  std::string out;
  std::string err;

  // "exit 2" or "killed by signal 11 (Segmentation fault)", for failure messages.
  [[nodiscard]] std::string status_text() const;
  // Everything known about the run, for failure messages.
  [[nodiscard]] std::string describe() const;
};

// The threadlab executable under test: $THREADLAB_BINARY when set (to test an installed binary),
// else the path CMake compiled in.
std::string threadlab_binary();

// Runs `threadlab args...` with stdin from /dev/null and waits for it.
ProcessResult run_threadlab(const std::vector<std::string>& args);

// A PNG's signature and the size its IHDR chunk declares; ok is false when the file is not a PNG.
struct PngHeader {
  bool ok = false;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uintmax_t bytes = 0;
};
PngHeader read_png_header(const std::filesystem::path& path);

// Splits text into lines without their '\n'; a missing final newline still ends a line.
std::vector<std::string> split_lines(const std::string& text);

}  // namespace tl::cli_test
