#pragma once
// Where a plotted line runs above one of its ceilings (a guide: the copy bandwidth measured on this
// machine), the short note under the plot that says so and why it can (the data fitting in the
// caches), so that a line "beating" its ceiling is read as what it is, not as an error.

#include <span>
#include <string>
#include <vector>

#include "core/plot/series.hpp"
#include "core/plot/tick_format.hpp"

namespace tl::plot {

// One note per guide that a current (not faint) series runs above at some point: "Above the host
// memcpy line: CPU, 1 thread (N = 1K to 256K). <the guide's above_reason>". The x range is that of
// the points above the line, written with `x_format`.
[[nodiscard]] std::vector<std::string> notes_above_guides(std::span<const PlotSeries> series,
                                                          std::span<const PlotGuide> guides,
                                                          TickFormat x_format);

}  // namespace tl::plot
