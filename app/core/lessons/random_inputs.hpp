#pragma once
// The lessons' input data: deterministic pseudo-random floats, so that the same seed gives the same
// inputs on the GPU, the emulator and the CPU reference, on every platform.

#include <cstdint>
#include <span>

namespace tl::lessons {

// Floats in [-1, 1).
void fill_random(std::span<float> values, std::uint32_t seed);

}  // namespace tl::lessons
