#include "core/plot/axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tl::plot {
namespace {

constexpr int kMinTicks = 5;
constexpr int kMaxTicks = 8;
constexpr int kPreferredTicks = 6;
// Above this many decades the log axis labels every n-th decade only, or labels would collide.
constexpr int kMaxLabelledDecades = 8;
// Up to this many decades the 2..9 minor ticks are drawn; beyond, they are a grey smear.
constexpr double kMaxDecadesWithMinorTicks = 5.0;
// Below this many decades 2× and 5× ticks are labelled too, so a short log axis still reads.
constexpr double kMaxDecadesWithLabelledMinors = 2.0;
// Tolerance for "is this multiple of the step inside the range", relative to the step.
constexpr double kStepEpsilon = 1e-9;

int tick_count(AxisRange range, double step) {
  const double first = std::ceil(range.min / step - kStepEpsilon);
  const double last = std::floor(range.max / step + kStepEpsilon);
  return static_cast<int>(last - first) + 1;
}

// Significant digits that tell adjacent ticks apart: enough to reach the step's first digit.
int digits_for_step(AxisRange range, double step) {
  const double largest = std::max(std::fabs(range.min), std::fabs(range.max));
  if (largest <= 0 || step <= 0) return 1;
  const int digits = static_cast<int>(std::floor(std::log10(largest))) -
                     static_cast<int>(std::floor(std::log10(step))) + 1;
  return std::clamp(digits, 1, 15);
}

// Floor modulo, so decade -3 with stride 2 is treated like decade 1.
int positive_mod(int value, int divisor) {
  return ((value % divisor) + divisor) % divisor;
}

}  // namespace

std::optional<AxisRange> data_range(std::span<const double> values, AxisScale scale) {
  std::optional<AxisRange> range;
  for (const double value : values) {
    if (!std::isfinite(value)) continue;
    if (scale == AxisScale::kLog10 && value <= 0) continue;
    if (!range) {
      range = AxisRange{value, value};
    } else {
      range->min = std::min(range->min, value);
      range->max = std::max(range->max, value);
    }
  }
  return range;
}

AxisRange pad_range(AxisRange range, AxisScale scale, double fraction) {
  fraction = std::max(0.0, fraction);
  if (scale == AxisScale::kLog10) {
    // Pad in decades, the unit the eye sees on a log axis. A single value gets one decade around
    // it.
    const double lo = std::log10(range.min);
    const double hi = std::log10(range.max);
    const double pad = hi > lo ? (hi - lo) * fraction : 0.5;
    return {std::pow(10.0, lo - pad), std::pow(10.0, hi + pad)};
  }
  if (range.span() > 0) {
    const double pad = range.span() * fraction;
    return {range.min - pad, range.max + pad};
  }
  // A single value: ±10 % of it (±1 around zero), so the point sits mid-plot with readable ticks.
  const double pad = range.min != 0 ? std::fabs(range.min) * 0.1 : 1.0;
  return {range.min - pad, range.max + pad};
}

double nice_linear_step(AxisRange range) {
  const double span = range.span();
  if (!(span > 0) || !std::isfinite(span)) return 1.0;
  const int exponent = static_cast<int>(std::floor(std::log10(span)));
  double best_step = std::pow(10.0, exponent);
  int best_score = std::numeric_limits<int>::max();
  for (int power = exponent - 2; power <= exponent + 1; ++power) {
    for (const double mantissa : {1.0, 2.0, 5.0}) {
      const double step = mantissa * std::pow(10.0, power);
      const int count = tick_count(range, step);
      const int distance = std::abs(count - kPreferredTicks);
      // Counts inside [5, 8] always beat counts outside it.
      const int score = (count >= kMinTicks && count <= kMaxTicks) ? distance : 1000 + distance;
      if (score < best_score) {
        best_score = score;
        best_step = step;
      }
    }
  }
  return best_step;
}

std::vector<AxisTick> linear_ticks(AxisRange range, TickFormat format) {
  std::vector<AxisTick> ticks;
  if (!(range.span() > 0)) return ticks;
  const double step = nice_linear_step(range);
  const int digits = digits_for_step(range, step);
  const auto first = static_cast<long long>(std::ceil(range.min / step - kStepEpsilon));
  const auto last = static_cast<long long>(std::floor(range.max / step + kStepEpsilon));
  for (long long i = first; i <= last; ++i) {
    // i * step rather than accumulating, so rounding errors do not build up; and an exact zero,
    // never 1e-17, so the label is "0".
    const double value = i == 0 ? 0.0 : static_cast<double>(i) * step;
    ticks.push_back({value, format_value(value, format, digits), true});
  }
  return ticks;
}

namespace {

// Bytes on a log axis: ticks at powers of two, which binary units name exactly ("4 KiB", "1 MiB");
// decades of bytes read "9.77 KiB, 97.7 KiB, 977 KiB". Every power gets a grid line; every
// stride-th is labelled, so that at most about eight labels share the axis.
std::vector<AxisTick> binary_log_ticks(AxisRange range, TickFormat format) {
  std::vector<AxisTick> ticks;
  const int first = static_cast<int>(std::ceil(std::log2(range.min) - kStepEpsilon));
  const int last = static_cast<int>(std::floor(std::log2(range.max) + kStepEpsilon));
  if (last - first < 2) return ticks;  // too narrow: the caller's 1-2-5 ticks read better
  const int count = last - first + 1;
  int stride = 1;
  for (const int candidate : {1, 2, 3, 5, 10, 20, 30}) {
    stride = candidate;
    if ((count + candidate - 1) / candidate <= kMaxLabelledDecades) break;
  }
  for (int power = first; power <= last; ++power) {
    const double value = std::ldexp(1.0, power);
    const bool labelled = positive_mod(power, stride) == 0;
    ticks.push_back({value, labelled ? format_tick(value, format) : std::string(), labelled});
  }
  return ticks;
}

}  // namespace

std::vector<AxisTick> log_ticks(AxisRange range, TickFormat format) {
  std::vector<AxisTick> ticks;
  if (!(range.min > 0) || !(range.max > range.min)) return ticks;
  if (format == TickFormat::kBytes) {
    ticks = binary_log_ticks(range, format);
    if (!ticks.empty()) return ticks;
  }
  const double lo = std::log10(range.min);
  const double hi = std::log10(range.max);
  const double decades = hi - lo;
  const int first_decade = static_cast<int>(std::ceil(lo - kStepEpsilon));
  const int last_decade = static_cast<int>(std::floor(hi + kStepEpsilon));
  const int decade_count = last_decade - first_decade + 1;

  if (decade_count < 2) {
    // Fewer than two decades inside: 1-2-5 ticks are the only way to get several labels.
    for (AxisTick& tick : linear_ticks(range, format)) {
      if (tick.value > 0) ticks.push_back(std::move(tick));
    }
    return ticks;
  }

  const int stride = std::max(1, (decade_count + kMaxLabelledDecades - 1) / kMaxLabelledDecades);
  const bool with_minors = decades <= kMaxDecadesWithMinorTicks;
  const bool label_minors = decades <= kMaxDecadesWithLabelledMinors;
  // From one decade below the first, so the 2..9 minors before the first full decade are drawn too.
  for (int decade = first_decade - 1; decade <= last_decade; ++decade) {
    const double base = std::pow(10.0, decade);
    if (decade >= first_decade) {
      const bool labelled = positive_mod(decade, stride) == 0;
      ticks.push_back({base, labelled ? format_tick(base, format) : std::string(), labelled});
    }
    if (!with_minors) continue;
    for (int multiple = 2; multiple <= 9; ++multiple) {
      const double value = base * multiple;
      if (value < range.min || value > range.max) continue;
      const bool labelled = label_minors && (multiple == 2 || multiple == 5);
      ticks.push_back({value, labelled ? format_tick(value, format) : std::string(), false});
    }
  }
  std::sort(ticks.begin(), ticks.end(),
            [](const AxisTick& a, const AxisTick& b) { return a.value < b.value; });
  return ticks;
}

AxisLayout layout_axis(std::span<const double> values, const AxisOptions& options) {
  AxisLayout layout;
  layout.scale = options.scale;
  layout.format = options.format;
  const bool log = options.scale == AxisScale::kLog10;
  const std::optional<AxisRange> data = data_range(values, options.scale);
  if (!data) {
    layout.range = log ? AxisRange{1.0, 10.0} : AxisRange{0.0, 1.0};
  } else {
    AxisRange range = *data;
    const bool anchor_at_zero = !log && options.include_zero && range.min >= 0;
    if (anchor_at_zero) range.min = 0;
    range = pad_range(range, options.scale, options.padding_fraction);
    // Zero is a real bound, not data near the edge: padding below it would show negative times.
    if (anchor_at_zero) range.min = 0;
    layout.range = range;
  }
  layout.ticks =
      log ? log_ticks(layout.range, options.format) : linear_ticks(layout.range, options.format);
  return layout;
}

}  // namespace tl::plot
