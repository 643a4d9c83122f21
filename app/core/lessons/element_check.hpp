#pragma once
// Comparing a kernel's output with the CPU's, element by element and bit for bit. Lessons whose
// kernels do one correctly rounded float operation chain per element (adds, 2x + 1) get identical
// bits on the GPU, the emulator and the CPU, so any difference is a bug, never rounding.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tl::lessons {

struct ElementCheck {
  bool passed = true;
  std::uint64_t wrong_count = 0;
  std::uint64_t first_wrong = 0;      // linear index, meaningful when !passed
  std::uint64_t first_wrong_row = 0;  // for 2D data; 0 for 1D data
  std::uint64_t first_wrong_col = 0;  // for 2D data; the index itself for 1D data
  float expected = 0;
  float actual = 0;
  std::string rule;    // what every element should equal, e.g. "out = 2 * in + 1"
  bool two_d = false;  // name the first wrong element by (row, col)
  [[nodiscard]] std::string describe() const;
};

// `expected` and `actual` of equal length; `cols` > 0 names positions as (row, col) of a row-major
// matrix with that many columns, 0 as plain indices. An unwritten element still holding NaN
// counts as wrong: the comparison is on bit patterns.
ElementCheck compare_elements(std::span<const float> expected, std::span<const float> actual,
                              std::string_view rule, std::uint64_t cols = 0);

}  // namespace tl::lessons
