#include "random_inputs.hpp"

namespace tl::lessons {

void fill_random(std::span<float> values, std::uint32_t seed) {
  // xorshift32: fast, deterministic on every platform, good enough for test data.
  std::uint32_t state = seed == 0 ? 0x9E3779B9u : seed;
  for (float& v : values) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    // 24 random mantissa bits scaled into [-1, 1).
    v = static_cast<float>(state >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}

}  // namespace tl::lessons
