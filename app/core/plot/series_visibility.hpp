#pragma once
// Which series the user has switched on or off in the legend. Keyed by series name rather than
// index, because the UI rebuilds its series every frame while a sweep adds points and earlier
// sweeps come and go: a click must stick to "CPU time", not to slot 2.

#include <map>
#include <string>

#include "core/plot/series.hpp"

namespace tl::plot {

class SeriesVisibility {
 public:
  // The user's choice when there is one, else the series' own `visible` flag.
  [[nodiscard]] bool is_visible(const PlotSeries& series) const;
  // Flips what is_visible(series) returns. Series sharing a name toggle together.
  void toggle(const PlotSeries& series);
  // Forgets every choice: all series back to their own flag.
  void reset() { overrides_.clear(); }

 private:
  std::map<std::string, bool, std::less<>> overrides_;
};

}  // namespace tl::plot
