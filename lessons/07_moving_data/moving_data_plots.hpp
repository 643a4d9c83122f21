#pragma once
// Lesson 7's plots as plain data (core/plot): the copy curves with their knees and the link's
// ceiling, and the mini-batch rates with the crossover. Built here from a report, so the views only
// draw them.

#include <vector>

#include "core/plot/series.hpp"
#include "lessons/07_moving_data/moving_data_runner.hpp"

namespace tl::compute {

struct MovingDataPlot {
  std::vector<plot::PlotSeries> series;
  std::vector<plot::PlotMarker> markers;
  std::vector<plot::PlotGuide> guides;
};

// GB/s against bytes for each copy series; a marker at each pinned series' knee; the link's
// ceiling as a guide where it is known.
[[nodiscard]] MovingDataPlot copy_plot(const MovingDataReport& report);
// Samples per second against batch size, the device (copies included) and the CPU; a marker at the
// crossover.
[[nodiscard]] MovingDataPlot batch_plot(const MovingDataReport& report);

}  // namespace tl::compute
