#include "element_check.hpp"

#include <algorithm>
#include <cstring>

namespace tl::lessons {

std::string ElementCheck::describe() const {
  if (passed) return "check passed: every element satisfies " + rule;
  const std::string where = two_d ? "(row " + std::to_string(first_wrong_row) + ", col " +
                                        std::to_string(first_wrong_col) + ")"
                                  : "index " + std::to_string(first_wrong);
  return "check FAILED (" + rule + "): " + std::to_string(wrong_count) +
         " wrong element(s); first at " + where + ": expected " + std::to_string(expected) +
         ", got " + std::to_string(actual);
}

ElementCheck compare_elements(std::span<const float> expected, std::span<const float> actual,
                              std::string_view rule, std::uint64_t cols) {
  ElementCheck check;
  check.rule = std::string(rule);
  check.two_d = cols > 0;
  const std::size_t count = std::min(expected.size(), actual.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(&expected[i], &actual[i], sizeof(float)) == 0) continue;
    if (check.passed) {
      check.passed = false;
      check.first_wrong = i;
      check.first_wrong_row = cols > 0 ? i / cols : 0;
      check.first_wrong_col = cols > 0 ? i % cols : i;
      check.expected = expected[i];
      check.actual = actual[i];
    }
    ++check.wrong_count;
  }
  // A missing tail is as wrong as a wrong value.
  const std::size_t longer = std::max(expected.size(), actual.size());
  if (longer > count) {
    if (check.passed) {
      check.passed = false;
      check.first_wrong = count;
      check.first_wrong_row = cols > 0 ? count / cols : 0;
      check.first_wrong_col = cols > 0 ? count % cols : count;
    }
    check.wrong_count += longer - count;
  }
  return check;
}

}  // namespace tl::lessons
