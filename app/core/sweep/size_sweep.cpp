#include "core/sweep/size_sweep.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tl {

std::vector<std::uint64_t> size_sweep(std::uint64_t min, std::uint64_t max,
                                      unsigned steps_per_octave) {
  std::vector<std::uint64_t> sizes;
  min = std::max<std::uint64_t>(min, 1);
  steps_per_octave = std::max(steps_per_octave, 1u);
  if (min > max) return sizes;
  // 2^64 is the first value that no longer fits; in-between sizes near it must stop there.
  constexpr double kTwoToThe64 = 18446744073709551616.0;
  const int first_octave = static_cast<int>(std::bit_width(min)) - 1;  // floor(log2(min))
  for (int octave = first_octave; octave < 64; ++octave) {
    const std::uint64_t power = std::uint64_t{1} << octave;
    if (power > max) break;
    if (power >= min) sizes.push_back(power);
    for (unsigned step = 1; step < steps_per_octave; ++step) {
      const double size =
          std::round(std::ldexp(std::exp2(static_cast<double>(step) / steps_per_octave), octave));
      if (size >= kTwoToThe64) break;
      const auto value = static_cast<std::uint64_t>(size);
      if (value > max) break;
      if (value >= min) sizes.push_back(value);
    }
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::uint64_t elements_fitting(std::uint64_t free_bytes, double bytes_per_element) {
  if (!(bytes_per_element > 0)) return 0;
  return static_cast<std::uint64_t>(static_cast<double>(free_bytes) * 0.8 / bytes_per_element);
}

}  // namespace tl
