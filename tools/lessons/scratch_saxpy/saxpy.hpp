#pragma once
// The scratch SAXPY lesson, y = a·x + y: who it is, the size rules, the CPU reference and the
// check. No CUDA here: the kernel is lessons/12_saxpy/kernels/saxpy.cuh.

#include <cstdint>
#include <span>
#include <string>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/result.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kSaxpyInfo{
    12, "saxpy", "SAXPY", "y = a·x + y, one thread per element, y updated in place", "12_saxpy"};
inline constexpr std::string_view kSaxpyId = kSaxpyInfo.id;

// The scalar a. Two, so that a·x is exact and a·x + y rounds once whether or not the compiler
// fuses the multiply and the add (nvcc does, a host compiler may not): the check can compare bits.
inline constexpr float kSaxpyA = 2.0f;

// Bytes and floating-point operations of one y = a·x + y over n floats: read x and y, write y; a
// multiply and an add per element.
[[nodiscard]] inline double saxpy_bytes(std::uint64_t n) {
  return 12.0 * static_cast<double>(n);
}
[[nodiscard]] inline double saxpy_flops(std::uint64_t n) {
  return 2.0 * static_cast<double>(n);
}

// The kernel indexes with a 32-bit int.
inline constexpr std::uint64_t kSaxpyMaxN = 0x7FFFFFFFull;

// n must be at least 1, fit the kernel's int index and, with x and y `copies` times (2 on the
// emulator: the host's and the emulated device's, both in this computer's memory), the memory
// available (max_bytes; 0 skips that check).
Status validate_saxpy_size(std::uint64_t n, std::uint64_t max_bytes, int copies = 1);

// More than 2^31 threads along x would wrap the kernel's int index to negative values that pass
// `i < n`: such launches are refused with the reason.
Status check_saxpy_index_range(const LaunchConfig& config);

// y = a·x + y, one element after another.
void saxpy_reference(float a, std::span<const float> x, std::span<float> y);

struct SaxpyCheck {
  bool passed = true;
  std::uint64_t wrong_count = 0;
  std::uint64_t first_wrong = 0;  // meaningful when !passed
  float expected = 0;
  float actual = 0;
  [[nodiscard]] std::string describe() const;
};

// `got` against `expected` bit for bit (so a NaN left in an unwritten element counts as wrong).
SaxpyCheck check_saxpy(std::span<const float> expected, std::span<const float> got);

}  // namespace tl::lessons
