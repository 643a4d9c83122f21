#pragma once
// Where the GPU starts to win: the smallest x from which one series stays below another.

#include <optional>

#include "core/plot/series.hpp"

namespace tl::plot {

// Smallest x at which `challenger` becomes lower (faster, for timings) than `baseline` and stays
// lower for every larger x both series cover. Between points both curves are taken as straight
// lines in log-log space — how they are drawn, and how timings scale (t ∝ N^k) — so the crossing is
// interpolated there. Uses PlotPoint::y; ignores points with x or y <= 0 or non-finite.
// Returns nullopt when the series do not overlap in x or the challenger is not lower at the end.
// Returns the start of the overlap when the challenger is lower everywhere.
[[nodiscard]] std::optional<double> find_crossover(const PlotSeries& baseline,
                                                   const PlotSeries& challenger);

}  // namespace tl::plot
