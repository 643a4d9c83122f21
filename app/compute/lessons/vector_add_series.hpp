#pragma once
// Vector-add measurements as sweep points and plot series: CPU (1 thread, all threads), GPU kernel
// and GPU end to end. On the emulator the "GPU" series are labelled as emulated.

#include <optional>
#include <vector>

#include "compute/lessons/vector_add_runner.hpp"
#include "core/plot/series.hpp"
#include "core/sweep/sweep_point.hpp"

namespace tl::compute {

struct SeriesNames {
  const char* cpu_single;
  const char* cpu_multi;
  const char* kernel;
  const char* end_to_end;
};
SeriesNames series_names(bool on_gpu);

// The empty series of a sweep, in legend order, with their colours.
std::vector<plot::PlotSeries> make_timing_series(bool on_gpu, std::uint32_t threads_per_block);

SweepPoint to_sweep_point(std::uint64_t n, const VectorAddReport& report);

// Appends the point's timings to the series of the same names.
void add_sweep_point(std::vector<plot::PlotSeries>& series, const SweepPoint& point);

// The N from which the end-to-end GPU time beats the single-threaded CPU, if the sweep shows it.
std::optional<double> find_gpu_crossover(const std::vector<plot::PlotSeries>& series);

}  // namespace tl::compute
