#include "debugging.hpp"

#include <cstring>
#include <limits>

namespace tl::lessons {

std::string_view bug_name(Bug bug) {
  return kBugNames[static_cast<int>(bug)];
}

Result<Bug> parse_bug(std::string_view name) {
  for (int b = 0; b < static_cast<int>(std::size(kBugNames)); ++b) {
    if (kBugNames[b] == name) return static_cast<Bug>(b);
  }
  return invalid_argument("bug: '" + std::string(name) +
                          "' is none of none, wrong-index, no-guard, no-barrier, divergent, "
                          "accumulates, null");
}

std::string_view kernel_name(Bug bug) {
  switch (bug) {
    case Bug::kWrongIndex:
      return "difference_wrong_index";
    case Bug::kNoGuard:
      return "difference_no_guard";
    case Bug::kNoBarrier:
      return "difference_no_barrier";
    case Bug::kDivergentBarrier:
      return "difference_divergent_barrier";
    case Bug::kAccumulates:
      return "difference_accumulates";
    case Bug::kNone:
    case Bug::kNull:
      break;
  }
  return "difference";
}

float unwritten_value() {
  return std::numeric_limits<float>::quiet_NaN();
}

Status validate_debugging_size(std::uint64_t n) {
  if (n == 0) return invalid_argument("N must be at least 1: there is nothing to difference.");
  if (n > 0x7FFFFFFFull) {
    return invalid_argument("N = " + std::to_string(n) +
                            " does not fit the kernel's int index (at most 2147483647).");
  }
  return Status::ok();
}

void difference_reference(std::span<const float> in, std::span<float> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = in[i] - (i > 0 ? in[i - 1] : 0.0f);
}

std::string DebuggingCheck::describe() const {
  if (passed) return "check passed: every element equals in[i] - in[i - 1]";
  std::string text = "check FAILED:";
  if (wrong_count > 0) {
    text += " " + std::to_string(wrong_count) + " wrong element(s)";
    if (never_written > 0) text += ", " + std::to_string(never_written) + " never written";
    text += "; first at index " + std::to_string(first_wrong) + ": expected " +
            std::to_string(expected) + ", got " + std::to_string(actual) + ".";
  }
  if (past_the_end > 0) {
    text += " " + std::to_string(past_the_end) +
            " float(s) written past the end of out, the first at out[" +
            std::to_string(first_past_the_end) + "] (the emulator's guard zone).";
  }
  return text;
}

DebuggingCheck check_difference(std::span<const float> expected, std::span<const float> got,
                                std::span<const float> guard) {
  DebuggingCheck result;
  const float unwritten = unwritten_value();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&expected[i], &got[i], sizeof(float)) == 0) continue;
    if (result.wrong_count == 0) {
      result.first_wrong = i;
      result.expected = expected[i];
      result.actual = got[i];
    }
    ++result.wrong_count;
    if (std::memcmp(&unwritten, &got[i], sizeof(float)) == 0) ++result.never_written;
  }
  for (std::size_t g = 0; g < guard.size(); ++g) {
    if (std::memcmp(&unwritten, &guard[g], sizeof(float)) == 0) continue;
    if (result.past_the_end == 0) result.first_past_the_end = got.size() + g;
    ++result.past_the_end;
  }
  result.passed = result.wrong_count == 0 && result.past_the_end == 0;
  return result;
}

}  // namespace tl::lessons
