#pragma once
// A kernel launch configuration <<<grid, block>>> and its validation against a device's limits,
// with messages that explain why a configuration is invalid, not only that it is.

#include <cstdint>
#include <string>
#include <vector>

#include "device_info.hpp"
#include "dim3.hpp"
#include "result.hpp"

namespace tl {

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;

  // Saturates at 2^64 - 1, which format_count writes as "more than 2^64".
  [[nodiscard]] std::uint64_t total_threads() const {
    return saturating_multiply(grid.volume(), block.volume());
  }
  [[nodiscard]] std::uint64_t threads_per_block() const { return block.volume(); }
  // "<<<4, 256>>>" or "<<<(8, 8), (16, 16)>>>".
  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const LaunchConfig&, const LaunchConfig&) = default;
};

enum class LaunchProblemKind {
  kZeroDimension,
  kTooManyThreadsPerBlock,
  kBlockDimTooLarge,
  kGridDimTooLarge,
};

struct LaunchProblem {
  LaunchProblemKind kind;
  std::string message;  // one sentence that teaches the rule that was broken
};

// Every rule the configuration breaks, empty when CUDA would accept it.
std::vector<LaunchProblem> validate(const LaunchConfig& config, const DeviceLimits& limits);

// The first problem as a Status, for callers that only need yes or no.
Status check_launch(const LaunchConfig& config, const DeviceLimits& limits);

// The smallest 1D grid that gives every one of n elements a thread with this many threads per
// block.
std::uint32_t blocks_to_cover(std::uint64_t n, std::uint32_t threads_per_block);

// Parses "256", "16,16" or "8,8,4" (also with 'x' or '×' as separator) into a Dim3.
Result<Dim3> parse_dim3(const std::string& text);

}  // namespace tl
