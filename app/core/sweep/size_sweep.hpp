#pragma once
// The sizes a benchmark sweep visits.

#include <cstdint>
#include <vector>

namespace tl {

// Powers of two from `min` to `max` (both inclusive), plus `steps_per_octave - 1` sizes evenly
// spaced on a log scale between neighbouring powers (rounded to integers), sorted and without
// duplicates. Sizes come from this fixed grid rather than starting at `min`, so two sweeps over
// different ranges share their x values and can be compared point by point. Empty when
// min > max; a min of 0 counts as 1 and steps_per_octave 0 as 1.
[[nodiscard]] std::vector<std::uint64_t> size_sweep(std::uint64_t min, std::uint64_t max,
                                                    unsigned steps_per_octave);

// How many elements of `bytes_per_element` a sweep may allocate on a device with `free_bytes` of
// free memory: 80 % of it, the rest left for the process (contexts, cuBLAS, the trace buffer).
[[nodiscard]] std::uint64_t elements_fitting(std::uint64_t free_bytes, double bytes_per_element);

}  // namespace tl
