#pragma once
// Runs a tool (a compiler, the CUDA disassembler) as a child process under limits, its output
// going to a file, and waits for it. The Lab's worker uses it inside its sandbox: whatever the
// tool is fed (a learner's source, the cubin NVRTC made of it) can cost at most these limits.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tl {

struct ProcessLimits {
  int cpu_seconds = 20;                     // RLIMIT_CPU of the child
  std::uint64_t memory_bytes = 2ull << 30;  // RLIMIT_AS of the child
  std::chrono::seconds wall{60};            // killed after this, whatever it is doing
};

struct ProcessResult {
  bool started = false;    // false: argv[0] could not be executed
  int exit_code = -1;      // 128 + the signal where a signal ended it
  std::string output;      // stdout and stderr together
  bool over_time = false;  // it ran past its CPU limit or the wall-clock backstop
};

// Runs `argv` (argv[0] a full path) in `working_dir`, stdin from /dev/null, stdout and stderr into
// `output_file` (read back into the result), and waits. Never throws.
[[nodiscard]] ProcessResult run_limited_process(const std::vector<std::string>& argv,
                                                const std::filesystem::path& working_dir,
                                                const std::filesystem::path& output_file,
                                                const ProcessLimits& limits = {});

}  // namespace tl
