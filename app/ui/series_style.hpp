#pragma once
// How the timing plot draws each series: the views' choice, made from what the series measures
// (its timing role), never from its name. The CPU side of a comparison is warm, the device side
// cool, so the two read apart at a glance; each series has its own marker shape, and rows on all
// threads and end-to-end rows are dashed so that they read as the pair of their one-thread or
// kernel-only twin.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/plot/series.hpp"

namespace tl::ui {

// Gives every current (not faint) series its colour, marker and dash, in order within each side.
// Faint series, earlier sweeps kept for comparison, keep the style they had.
void style_timing_series(std::vector<plot::PlotSeries>& series);

// The hue of the `index`-th device series (the cool side), for views that show the device's kernels
// one by one (the roofline's points), so a kernel reads in the hue family of the timing plot.
[[nodiscard]] std::uint32_t device_series_color(std::size_t index);

}  // namespace tl::ui
