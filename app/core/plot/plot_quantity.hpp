#pragma once
// What the timing plot's y axis shows. Sweeps record times; the same points can be read as rates
// (GB/s, GFLOP/s), where the gap between a kernel and cuBLAS or the memory bandwidth is a distance
// one can read off, rather than a ratio of two times on a log axis.

#include <span>
#include <string_view>
#include <vector>

#include "core/plot/axis.hpp"
#include "core/plot/series.hpp"
#include "core/result.hpp"

namespace tl::plot {

enum class PlotQuantity { kTime, kBandwidth, kFlopRate };

// Every quantity, in the order the UI lists them.
[[nodiscard]] std::span<const PlotQuantity> all_plot_quantities();
// "time", "gbps", "gflops": the names lesson links use (plot=gflops).
[[nodiscard]] std::string_view to_string(PlotQuantity quantity);
Result<PlotQuantity> parse_plot_quantity(std::string_view name);
// The label of the choice in the UI ("time", "GB/s", "GFLOP/s") and the y axis title.
[[nodiscard]] std::string_view quantity_label(PlotQuantity quantity);
[[nodiscard]] std::string_view quantity_axis_title(PlotQuantity quantity);
// How the y axis is laid out: times and rates both span decades across a sweep, so log10 axes,
// each with its unit.
[[nodiscard]] AxisOptions quantity_axis(PlotQuantity quantity);

// Whether any point of `series` carries the work needed to show `quantity` (time: any point).
[[nodiscard]] bool has_quantity(std::span<const PlotSeries> series, PlotQuantity quantity);

// `series` (times in ms) as `quantity`. A rate is work / time: the median time gives the headline
// rate, the slowest repeat the lowest rate and the fastest the highest, so the band stays the
// spread of the repeats. Points without that work, or without a positive time, are left out, and
// so are series left with no points (a copy has bytes but no flops: it has no GFLOP/s curve).
[[nodiscard]] std::vector<PlotSeries> as_quantity(std::span<const PlotSeries> series,
                                                  PlotQuantity quantity);

}  // namespace tl::plot
