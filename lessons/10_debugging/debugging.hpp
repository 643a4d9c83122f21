#pragma once
// Lesson 10, finding bugs in kernels: who it is, the planted bugs, the CPU reference and the
// check. No CUDA here: the kernels are lessons/10_debugging/kernels/debugging.cuh.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/lessons/catalog.hpp"
#include "core/result.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kDebuggingInfo{
    10, "debugging", "Finding bugs in kernels",
    "five planted bugs, found with ThreadLab's views and compute-sanitizer", "10_debugging"};
inline constexpr std::string_view kDebuggingId = kDebuggingInfo.id;

// Which kernel runs: the right one, one of the five planted bugs in it, or the right kernel given
// a null output (the program that never checked its cudaMalloc), which faults on a GPU.
enum class Bug { kNone, kWrongIndex, kNoGuard, kNoBarrier, kDivergentBarrier, kAccumulates, kNull };

// As the lesson's `bug` parameter spells them, in this order.
inline constexpr std::string_view kBugNames[] = {
    "none", "wrong-index", "no-guard", "no-barrier", "divergent", "accumulates", "null"};
[[nodiscard]] std::string_view bug_name(Bug bug);
[[nodiscard]] Result<Bug> parse_bug(std::string_view name);

// The kernel that runs, by its name in debugging.cuh (what the sanitizer's report names).
[[nodiscard]] std::string_view kernel_name(Bug bug);

// The kernel tiles a block's elements in shared memory sized for the largest block.
inline constexpr std::uint64_t kDebuggingMostThreads = 1024;

// Floats after `out` that the emulator allocates and watches, so that writes past its end land
// there and are named instead of corrupting the process's memory: enough for the spare threads of
// the largest block. A GPU gets `out` at its exact size, as a program allocates it.
inline constexpr std::uint64_t kGuardFloats = kDebuggingMostThreads;

// The value an element of `out` starts with where the lesson initialises it (every bug but
// "accumulates", whose point is that nothing did): an element still holding it was never written.
// A quiet NaN, which no difference of finite inputs gives.
[[nodiscard]] float unwritten_value();

// Bytes read and written by one difference over n floats: in once (the halo adds one float per
// block, not counted), out once.
[[nodiscard]] inline double difference_bytes(std::uint64_t n) {
  return 8.0 * static_cast<double>(n);
}

// n must be at least 1 and fit the kernel's int index.
Status validate_debugging_size(std::uint64_t n);

// out[i] = in[i] - in[i - 1], out[0] = in[0].
void difference_reference(std::span<const float> in, std::span<float> out);

struct DebuggingCheck {
  bool passed = true;
  std::uint64_t wrong_count = 0;    // elements of out that differ from the reference
  std::uint64_t never_written = 0;  // of those, still holding unwritten_value()
  std::uint64_t first_wrong = 0;    // meaningful when wrong_count > 0
  float expected = 0;
  float actual = 0;
  std::uint64_t past_the_end = 0;        // guard floats written (the emulator's guard zone)
  std::uint64_t first_past_the_end = 0;  // its index in out, n or more
  [[nodiscard]] std::string describe() const;
};

// `got` (n elements) against `expected` bit for bit, and `guard` (the floats after out, if
// watched) against unwritten_value().
DebuggingCheck check_difference(std::span<const float> expected, std::span<const float> got,
                                std::span<const float> guard);

}  // namespace tl::lessons
