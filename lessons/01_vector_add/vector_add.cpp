#include "vector_add.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/format.hpp"
#include "core/parallel_chunks.hpp"

namespace tl::lessons {

Status validate_vector_add_size(std::uint64_t n, std::uint64_t max_bytes, int copies) {
  if (n == 0) return invalid_argument("N must be at least 1: there is nothing to add.");
  if (n > kVectorAddMaxN) {
    return invalid_argument("N = " + std::to_string(n) +
                            " does not fit the kernel's int index (at most " +
                            std::to_string(kVectorAddMaxN) + ").");
  }
  const double needed = vector_add_bytes(n) * copies;
  if (max_bytes > 0 && needed > static_cast<double>(max_bytes)) {
    const std::string where =
        copies > 1 ? " for A, B and C on the host and again as the emulator's device arrays (both "
                     "in this computer's memory)"
                   : " for A, B and C";
    return Error{ErrorKind::kOutOfMemory,
                 "N = " + std::to_string(n) + " needs " + format_bytes(needed) + where +
                     ", but only " + format_bytes(static_cast<double>(max_bytes)) +
                     " is available; the largest N that fits is " +
                     std::to_string(static_cast<std::uint64_t>(static_cast<double>(max_bytes) /
                                                               (vector_add_bytes(1) * copies))) +
                     "."};
  }
  return Status::ok();
}

Status check_vector_add_index_range(const LaunchConfig& config) {
  const std::uint64_t threads_along_x = std::uint64_t{config.grid.x} * config.block.x;
  constexpr std::uint64_t kIntRange = std::uint64_t{1} << 31;
  if (threads_along_x <= kIntRange) return Status::ok();
  return invalid_argument(
      config.to_string() + " launches " + std::to_string(threads_along_x) +
      " threads along x, but the kernel's int i = blockIdx.x * blockDim.x + threadIdx.x "
      "holds at most 2^31 - 1: i would wrap to negative values and write outside the "
      "arrays. Use fewer blocks.");
}

LaunchConfig single_block_config(std::uint64_t n) {
  LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {static_cast<std::uint32_t>(std::min<std::uint64_t>(n, 0xFFFFFFFFull)), 1, 1};
  return config;
}

LaunchConfig covering_config(std::uint64_t n, std::uint32_t threads_per_block) {
  LaunchConfig config;
  config.block = {threads_per_block, 1, 1};
  config.grid = {blocks_to_cover(n, threads_per_block), 1, 1};
  return config;
}

LaunchConfig vectorized_vector_add_config(std::uint64_t n) {
  return covering_config((n + 3) / 4, 256);
}

void vector_add_reference(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}

unsigned vector_add_reference_parallel(std::span<const float> a, std::span<const float> b,
                                       std::span<float> c, unsigned threads) {
  // Below 2^16 elements a thread, starting it costs more than its adds.
  return for_each_chunk(c.size(), threads, std::size_t{1} << 16,
                        [&](std::size_t begin, std::size_t end) {
                          for (std::size_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
                        });
}

std::string CheckResult::describe() const {
  if (passed) return "check passed: every element equals A + B";
  return "check FAILED: " + std::to_string(wrong_count) + " wrong element(s); first at index " +
         std::to_string(first_wrong) + ": expected " + std::to_string(expected) + ", got " +
         std::to_string(actual);
}

CheckResult check_vector_add(std::span<const float> a, std::span<const float> b,
                             std::span<const float> c) {
  CheckResult result;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const float expected = a[i] + b[i];
    // Compare bit patterns so that a NaN left in an unwritten element counts as wrong.
    if (std::memcmp(&expected, &c[i], sizeof(float)) != 0) {
      if (result.passed) {
        result.passed = false;
        result.first_wrong = i;
        result.expected = expected;
        result.actual = c[i];
      }
      ++result.wrong_count;
    }
  }
  return result;
}

}  // namespace tl::lessons
