#pragma once
// A lesson's timed runs as sweep points and plot series: one series per plotted timing row, in the
// order the lesson reports them, each with its min–max band.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "core/plot/series.hpp"
#include "core/sweep/sweep_point.hpp"

namespace tl::compute {

SweepPoint to_sweep_point(double x, const LessonReport& report);

// Appends the point's timings to the series of the same key (what they measure), creating series
// for keys not seen yet. Colours and dashes are the views' choice (app/ui/series_style.hpp).
void add_sweep_point(std::vector<plot::PlotSeries>& series, const SweepPoint& point);

// Where `challenger` becomes and stays faster than `baseline`, if both series exist and cross.
std::optional<double> find_series_crossover(const std::vector<plot::PlotSeries>& series,
                                            const std::pair<TimingKey, TimingKey>& keys);

}  // namespace tl::compute
