#pragma once
// Axes for the CPU-vs-GPU plots: from the data on an axis to a padded range and "nice" ticks.
// Timings span orders of magnitude (microseconds for a small vector, seconds for a big matmul on
// the CPU), so log10 axes are the norm here; linear axes exist for GB/s and similar quantities.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/plot/tick_format.hpp"

namespace tl::plot {

enum class AxisScale { kLinear, kLog10 };

struct AxisRange {
  double min = 0;
  double max = 1;
  [[nodiscard]] double span() const { return max - min; }
  friend bool operator==(const AxisRange&, const AxisRange&) = default;
};

struct AxisTick {
  double value = 0;
  std::string label;  // empty for minor ticks: they get a grid line but no text
  bool major = true;
};

struct AxisOptions {
  AxisScale scale = AxisScale::kLinear;
  TickFormat format = TickFormat::kNumber;
  // Fraction of the span added on each side, so points do not sit on the frame. On a log axis the
  // fraction applies to the span in decades.
  double padding_fraction = 0.05;
  // A linear axis whose data is all positive (timings, bandwidths) reads better starting at zero.
  bool include_zero = false;
};

struct AxisLayout {
  AxisScale scale = AxisScale::kLinear;
  TickFormat format = TickFormat::kNumber;
  AxisRange range;
  std::vector<AxisTick> ticks;  // sorted by value, all inside range
};

// Smallest and largest usable value. Non-finite values are skipped, and so are values <= 0 on a log
// axis (they cannot be placed; the view clamps them to the axis edge when drawing). nullopt when
// nothing is usable.
[[nodiscard]] std::optional<AxisRange> data_range(std::span<const double> values, AxisScale scale);

// Widens a range by `fraction` of its span on each side (in decades on a log axis). A single value
// (zero span) gets a sensible window around it instead of an empty range.
[[nodiscard]] AxisRange pad_range(AxisRange range, AxisScale scale, double fraction);

// Step from the 1-2-5 series (…, 0.1, 0.2, 0.5, 1, 2, 5, 10, …) that gives between 5 and 8 ticks
// over `range`, as close to 6 as the series allows.
[[nodiscard]] double nice_linear_step(AxisRange range);

// Major ticks at multiples of nice_linear_step(range) inside range. Steps are decimal for every
// format, kBytes included: byte counts on a linear axis are rare here (sizes sweep on log axes).
[[nodiscard]] std::vector<AxisTick> linear_ticks(AxisRange range, TickFormat format);

// Major ticks at decades; minor ticks at 2..9 × decade when the range spans few decades; every
// n-th decade labelled when it spans many. Ranges narrower than a decade fall back to 1-2-5 ticks,
// since a log axis with one labelled tick cannot be read.
[[nodiscard]] std::vector<AxisTick> log_ticks(AxisRange range, TickFormat format);

// The whole pipeline: data_range → pad_range → ticks. Empty data gives a default range
// ([0, 1] linear, [1, 10] log) so an empty plot still shows a frame with ticks.
[[nodiscard]] AxisLayout layout_axis(std::span<const double> values, const AxisOptions& options);

}  // namespace tl::plot
