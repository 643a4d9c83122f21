#include "saxpy.hpp"

#include <cstring>

#include "core/format.hpp"

namespace tl::lessons {

Status validate_saxpy_size(std::uint64_t n, std::uint64_t max_bytes, int copies) {
  if (n == 0) return invalid_argument("N must be at least 1: there is nothing to update.");
  if (n > kSaxpyMaxN) {
    return invalid_argument("N = " + std::to_string(n) +
                            " does not fit the kernel's int index (at most " +
                            std::to_string(kSaxpyMaxN) + ").");
  }
  const double needed = 8.0 * static_cast<double>(n) * copies;  // x and y
  if (max_bytes > 0 && needed > static_cast<double>(max_bytes)) {
    return Error{ErrorKind::kOutOfMemory, "N = " + std::to_string(n) + " needs " +
                                              format_bytes(needed) + " for x and y, but only " +
                                              format_bytes(static_cast<double>(max_bytes)) +
                                              " is available."};
  }
  return Status::ok();
}

Status check_saxpy_index_range(const LaunchConfig& config) {
  const std::uint64_t threads_along_x = std::uint64_t{config.grid.x} * config.block.x;
  if (threads_along_x <= (std::uint64_t{1} << 31)) return Status::ok();
  return invalid_argument(config.to_string() + " launches " + std::to_string(threads_along_x) +
                          " threads along x, more than the kernel's int index holds: i would wrap "
                          "to negative values and write outside y. Use fewer blocks.");
}

void saxpy_reference(float a, std::span<const float> x, std::span<float> y) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = a * x[i] + y[i];
}

std::string SaxpyCheck::describe() const {
  if (passed) return "check passed: every element equals a·x + y";
  return "check FAILED: " + std::to_string(wrong_count) + " wrong element(s); first at index " +
         std::to_string(first_wrong) + ": expected " + std::to_string(expected) + ", got " +
         std::to_string(actual);
}

SaxpyCheck check_saxpy(std::span<const float> expected, std::span<const float> got) {
  SaxpyCheck result;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&expected[i], &got[i], sizeof(float)) == 0) continue;
    if (result.passed) {
      result.passed = false;
      result.first_wrong = i;
      result.expected = expected[i];
      result.actual = got[i];
    }
    ++result.wrong_count;
  }
  return result;
}

}  // namespace tl::lessons
