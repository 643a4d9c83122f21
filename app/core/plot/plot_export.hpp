#pragma once
// Plot data out of the app: CSV for spreadsheets, JSON for scripts and for reloading a sweep.

#include <filesystem>
#include <span>
#include <string>

#include "core/plot/series.hpp"
#include "core/result.hpp"

namespace tl::plot {

// One row per point, header `series,x,y,y_min,y_max,bytes,flops` (bytes and flops: the work of one
// run at x, 0 where unknown, so rates can be computed from the file). Names are quoted when they
// need it (RFC 4180); numbers are written in the shortest form that reads back to the same double.
[[nodiscard]] std::string series_to_csv(std::span<const PlotSeries> series);

// {"series": [{"name", "color": "#rrggbbaa", "visible", "faint", "dashed", "dash", "marker",
//              "points": [{"x", "y", "y_min", "y_max", "bytes", "flops"}]}],
//  "markers": [{"x", "label"}]}, indented by two spaces. Non-finite numbers become null.
[[nodiscard]] std::string series_to_json(std::span<const PlotSeries> series,
                                         std::span<const PlotMarker> markers);

// Write the text above to `path`, replacing the file. Errors are kIoError with the path and reason.
[[nodiscard]] Status export_csv(const std::filesystem::path& path,
                                std::span<const PlotSeries> series);
[[nodiscard]] Status export_json(const std::filesystem::path& path,
                                 std::span<const PlotSeries> series,
                                 std::span<const PlotMarker> markers);

}  // namespace tl::plot
