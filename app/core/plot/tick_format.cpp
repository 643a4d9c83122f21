#include "core/plot/tick_format.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "core/format.hpp"

namespace tl::plot {
namespace {

constexpr int kTickDigits = 3;
constexpr int kReadoutDigits = 4;

struct Unit {
  double scale;  // value of one unit in the axis's base unit
  std::string_view suffix;
};

// Ascending by scale; the first entry is used for values smaller than every unit.
constexpr std::array<Unit, 4> kTimeUnits{{{1e-6, " ns"}, {1e-3, " µs"}, {1.0, " ms"}, {1e3, " s"}}};
constexpr std::array<Unit, 5> kByteUnits{{{1.0, " B"},
                                          {1024.0, " KiB"},
                                          {1048576.0, " MiB"},
                                          {1073741824.0, " GiB"},
                                          {1099511627776.0, " TiB"}}};
constexpr std::array<Unit, 5> kCountUnits{
    {{1.0, ""}, {1e3, "K"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}}};
constexpr std::array<Unit, 6> kByteRateUnits{{{1.0, " B/s"},
                                              {1e3, " kB/s"},
                                              {1e6, " MB/s"},
                                              {1e9, " GB/s"},
                                              {1e12, " TB/s"},
                                              {1e15, " PB/s"}}};
constexpr std::array<Unit, 6> kFlopRateUnits{{{1.0, " FLOP/s"},
                                              {1e3, " kFLOP/s"},
                                              {1e6, " MFLOP/s"},
                                              {1e9, " GFLOP/s"},
                                              {1e12, " TFLOP/s"},
                                              {1e15, " PFLOP/s"}}};

// Rounds to `digits` significant digits, so the unit is chosen after rounding: 999.96 µs must
// become "1 ms", not "1000 µs".
double round_significant(double value, int digits) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, value);
  return std::strtod(buffer, nullptr);
}

// Fixed notation with trailing zeros removed for everyday magnitudes; %g beyond them, where fixed
// notation would be a wall of zeros.
std::string plain_number(double value, int digits) {
  if (value == 0.0) return "0";
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  char buffer[64];
  if (exponent < -4 || exponent >= 9) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
  }
  const int decimals = std::max(0, digits - 1 - exponent);
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

// The unit is picked on the value, and the value is rounded in that unit: rounded in bytes first,
// 1024 B became "1020 B" instead of "1 KiB". Where rounding reaches the next unit (999.96 µs to
// 1000 µs) the next unit is taken, so that reads "1 ms".
std::string with_unit(double value, int digits, std::span<const Unit> units) {
  if (round_significant(value, digits) == 0.0) return "0";
  const double magnitude = std::fabs(value);
  std::size_t unit = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (magnitude >= units[i].scale) unit = i;
  }
  double scaled = round_significant(value / units[unit].scale, digits);
  if (unit + 1 < units.size() && std::fabs(scaled) * units[unit].scale >= units[unit + 1].scale) {
    ++unit;
    scaled = round_significant(value / units[unit].scale, digits);
  }
  return plain_number(scaled, digits) + std::string(units[unit].suffix);
}

}  // namespace

std::string format_value(double value, TickFormat format, int significant_digits) {
  if (!std::isfinite(value)) return std::isnan(value) ? "n/a" : (value > 0 ? "inf" : "-inf");
  const int digits = std::clamp(significant_digits, 1, 15);
  switch (format) {
    case TickFormat::kNumber:
      return plain_number(round_significant(value, digits), digits);
    case TickFormat::kMilliseconds:
      return with_unit(value, digits, kTimeUnits);
    case TickFormat::kBytes:
      return with_unit(value, digits, kByteUnits);
    case TickFormat::kCount:
      return with_unit(value, digits, kCountUnits);
    case TickFormat::kByteRate:
      return with_unit(value, digits, kByteRateUnits);
    case TickFormat::kFlopRate:
      return with_unit(value, digits, kFlopRateUnits);
  }
  return plain_number(value, digits);
}

std::string format_tick(double value, TickFormat format) {
  return format_value(value, format, kTickDigits);
}

std::string format_readout(double value, TickFormat format) {
  // Sweep sizes are exact integers the user chose, so show them exactly; powers of two, the usual
  // sweep grid, also as an exponent, which is how the lessons talk about them.
  const bool exact_integer =
      std::isfinite(value) && value >= 0 && value < 1.8e19 && value == std::floor(value);
  if (format == TickFormat::kCount && exact_integer) {
    const auto n = static_cast<std::uint64_t>(value);
    const std::string power = format_power_of_two(n);
    const std::string count = format_count(n);
    return power == count ? count : count + " (" + power + ")";
  }
  return format_value(value, format, kReadoutDigits);
}

}  // namespace tl::plot
