#pragma once
// The axes of a whole plot, from the series the user can currently see.

#include <span>

#include "core/plot/axis.hpp"
#include "core/plot/series.hpp"
#include "core/plot/series_visibility.hpp"

namespace tl::plot {

struct PlotAxes {
  AxisLayout x;
  AxisLayout y;
};

// Lays out both axes over the visible series (faint ones included: the comparison must fit) and
// the markers' x, and the guides' y (a ceiling above every curve stays in view). Hidden series do
// not count, so hiding the slow CPU curve rescales onto the GPU curves. With `include_bands`,
// y_min/y_max widen the y range so bands are not cut off.
[[nodiscard]] PlotAxes layout_plot_axes(std::span<const PlotSeries> series,
                                        std::span<const PlotMarker> markers,
                                        const SeriesVisibility& visibility,
                                        const AxisOptions& x_options, const AxisOptions& y_options,
                                        bool include_bands, std::span<const PlotGuide> guides = {});

}  // namespace tl::plot
