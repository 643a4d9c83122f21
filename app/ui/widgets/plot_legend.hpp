#pragma once
// The plot legend: one entry per series, flowing into rows; clicking an entry hides or shows it.

#include <span>

#include "core/plot/series.hpp"
#include "core/plot/series_visibility.hpp"

namespace tl::ui {

// Submits the legend at the cursor as ImGui items, wrapping at `width` pixels. Returns true when
// an entry was clicked (and `visibility` changed).
bool draw_plot_legend(std::span<const plot::PlotSeries> series, plot::SeriesVisibility& visibility,
                      float width, bool one_per_row = false);
// The width of the legend's widest entry (its swatch and name), and of all entries in one row.
float widest_legend_entry(std::span<const plot::PlotSeries> series);
float legend_row_width(std::span<const plot::PlotSeries> series);

}  // namespace tl::ui
