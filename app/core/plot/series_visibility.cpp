#include "core/plot/series_visibility.hpp"

namespace tl::plot {

bool SeriesVisibility::is_visible(const PlotSeries& series) const {
  const auto found = overrides_.find(series.name);
  return found != overrides_.end() ? found->second : series.visible;
}

void SeriesVisibility::toggle(const PlotSeries& series) {
  overrides_[series.name] = !is_visible(series);
}

}  // namespace tl::plot
