#pragma once
// Line dashes and point markers that tell series apart without their hues. The i-th series of a
// plot gets the i-th marker shape; series that are the twin of another (all threads of one thread,
// end to end of a kernel) are dashed; a second round of shapes (series 7 to 12) is dotted, or
// dash-dotted for twins. So the first twelve series all differ in (marker, dash), whatever is
// twinned, and the painter draws what is computed here.

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/plot/dash_pattern.hpp"
#include "core/plot/series.hpp"

namespace tl::plot {

inline constexpr std::size_t kMarkerShapeCount = 6;
// How many series series_mark() keeps apart: two rounds of the marker shapes.
inline constexpr std::size_t kDistinctSeriesMarks = 2 * kMarkerShapeCount;

struct SeriesMark {
  MarkerShape marker = MarkerShape::kCircle;
  LineDash dash = LineDash::kSolid;
  friend bool operator==(const SeriesMark&, const SeriesMark&) = default;
};

// The mark of the series at `index` among a plot's current series; `twin`: it is the dashed twin
// of another series (it reads as that one's pair).
[[nodiscard]] SeriesMark series_mark(std::size_t index, bool twin);

[[nodiscard]] std::string_view to_string(LineDash dash);       // "solid", "dashed", ...
[[nodiscard]] std::string_view to_string(MarkerShape marker);  // "circle", "square", ...

// Lengths along the line, alternately drawn and skipped, for `dash` on a line `thickness` pixels
// wide (empty: solid).
[[nodiscard]] std::vector<double> dash_lengths(LineDash dash, double thickness);

// The outline of `marker` centred on `centre`, `radius` pixels from centre to corner: a polygon
// (closed, convex) for the filled shapes, or two segments' four ends for the cross. A circle is
// drawn by the painter itself and has no outline here.
[[nodiscard]] std::vector<PixelPoint> marker_outline(MarkerShape marker, PixelPoint centre,
                                                     double radius);

}  // namespace tl::plot
