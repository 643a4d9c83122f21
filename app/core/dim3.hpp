#pragma once
// A host-side dim3 that does not need CUDA headers, so the core stays testable on any machine.

#include <cstdint>
#include <limits>
#include <string>

namespace tl {

// a · b, or the largest 64-bit count where the product would not fit. CUDA accepts grids of up to
// (2^31 - 1) × 65535 × 65535 blocks of 1024 threads, about 2^73 threads: a wrapped count would
// show a small, wrong number of threads, a saturated one shows "more than 2^64" (format_count).
[[nodiscard]] constexpr std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return a * b;
}

struct Dim3 {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;

  // Saturates at 2^64 - 1: three 32-bit extents can hold up to 96 bits of product.
  [[nodiscard]] std::uint64_t volume() const {
    return saturating_multiply(std::uint64_t{x} * std::uint64_t{y}, std::uint64_t{z});
  }
  // Linear index of a position inside this extent, x fastest (CUDA's convention).
  [[nodiscard]] std::uint64_t linear(std::uint32_t px, std::uint32_t py, std::uint32_t pz) const {
    return px + std::uint64_t{x} * (py + std::uint64_t{y} * pz);
  }
  [[nodiscard]] Dim3 unlinear(std::uint64_t index) const {
    return {static_cast<std::uint32_t>(index % x), static_cast<std::uint32_t>((index / x) % y),
            static_cast<std::uint32_t>(index / (std::uint64_t{x} * y))};
  }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

// "(x, y, z)" with trailing ones dropped, e.g. "256" or "16×16".
std::string to_string(const Dim3& d);

}  // namespace tl
