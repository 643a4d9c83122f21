#pragma once
// A host-side dim3 that does not need CUDA headers, so the core stays testable on any machine.

#include <cstdint>
#include <string>

namespace tl {

struct Dim3 {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;

  [[nodiscard]] std::uint64_t volume() const {
    return std::uint64_t{x} * std::uint64_t{y} * std::uint64_t{z};
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
