#include "core/plot/plot_axes.hpp"

#include <vector>

namespace tl::plot {

PlotAxes layout_plot_axes(std::span<const PlotSeries> series, std::span<const PlotMarker> markers,
                          const SeriesVisibility& visibility, const AxisOptions& x_options,
                          const AxisOptions& y_options, bool include_bands,
                          std::span<const PlotGuide> guides) {
  std::vector<double> xs;
  std::vector<double> ys;
  for (const PlotSeries& s : series) {
    if (!visibility.is_visible(s)) continue;
    for (const PlotPoint& p : s.points) {
      xs.push_back(p.x);
      ys.push_back(p.y);
      if (include_bands) {
        ys.push_back(p.y_min);
        ys.push_back(p.y_max);
      }
    }
  }
  for (const PlotMarker& marker : markers) xs.push_back(marker.x);
  // Guides widen the range only where there are points to compare with them.
  if (!ys.empty()) {
    for (const PlotGuide& guide : guides) ys.push_back(guide.y);
  }
  return {layout_axis(xs, x_options), layout_axis(ys, y_options)};
}

}  // namespace tl::plot
