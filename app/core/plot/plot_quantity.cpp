#include "core/plot/plot_quantity.hpp"

#include <array>
#include <cmath>
#include <string>

namespace tl::plot {
namespace {

constexpr std::array kQuantities{PlotQuantity::kTime, PlotQuantity::kBandwidth,
                                 PlotQuantity::kFlopRate};

double work_for(const PlotPoint& point, PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::kTime:
      return 0;
    case PlotQuantity::kBandwidth:
      return point.bytes;
    case PlotQuantity::kFlopRate:
      return point.flops;
  }
  return 0;
}

bool can_show(const PlotPoint& point, PlotQuantity quantity) {
  if (quantity == PlotQuantity::kTime) return true;
  const double work = work_for(point, quantity);
  return work > 0 && std::isfinite(work) && point.y > 0 && std::isfinite(point.y);
}

// Work per run over a time in milliseconds, per second.
double rate(double work, double milliseconds) {
  return work / (milliseconds * 1e-3);
}

}  // namespace

std::span<const PlotQuantity> all_plot_quantities() {
  return kQuantities;
}

std::string_view to_string(PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::kTime:
      return "time";
    case PlotQuantity::kBandwidth:
      return "gbps";
    case PlotQuantity::kFlopRate:
      return "gflops";
  }
  return "time";
}

Result<PlotQuantity> parse_plot_quantity(std::string_view name) {
  for (PlotQuantity quantity : kQuantities) {
    if (to_string(quantity) == name) return quantity;
  }
  return Error{ErrorKind::kInvalidArgument,
               "plot=" + std::string(name) + ": expected time, gbps or gflops"};
}

std::string_view quantity_label(PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::kTime:
      return "time";
    case PlotQuantity::kBandwidth:
      return "GB/s";
    case PlotQuantity::kFlopRate:
      return "GFLOP/s";
  }
  return "time";
}

std::string_view quantity_axis_title(PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::kTime:
      return "time (median of the repeats, band: min to max)";
    case PlotQuantity::kBandwidth:
      return "bytes moved per second (band: slowest to fastest repeat)";
    case PlotQuantity::kFlopRate:
      return "floating-point operations per second (band: slowest to fastest repeat)";
  }
  return "";
}

AxisOptions quantity_axis(PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::kTime:
      return {.scale = AxisScale::kLog10, .format = TickFormat::kMilliseconds};
    case PlotQuantity::kBandwidth:
      return {.scale = AxisScale::kLog10, .format = TickFormat::kByteRate};
    case PlotQuantity::kFlopRate:
      return {.scale = AxisScale::kLog10, .format = TickFormat::kFlopRate};
  }
  return {};
}

bool has_quantity(std::span<const PlotSeries> series, PlotQuantity quantity) {
  for (const PlotSeries& s : series) {
    for (const PlotPoint& point : s.points) {
      if (can_show(point, quantity)) return true;
    }
  }
  return false;
}

std::vector<PlotSeries> as_quantity(std::span<const PlotSeries> series, PlotQuantity quantity) {
  if (quantity == PlotQuantity::kTime) return {series.begin(), series.end()};
  std::vector<PlotSeries> shown;
  for (const PlotSeries& s : series) {
    PlotSeries converted = s;
    converted.points.clear();
    for (const PlotPoint& point : s.points) {
      if (!can_show(point, quantity)) continue;
      const double work = work_for(point, quantity);
      PlotPoint p = point;
      p.y = rate(work, point.y);
      // A faster repeat is a higher rate: the band's ends swap. Points without a spread keep none.
      if (has_spread(point) && point.y_min > 0) {
        p.y_min = rate(work, point.y_max);
        p.y_max = rate(work, point.y_min);
      } else {
        p.y_min = 0;
        p.y_max = 0;
      }
      converted.points.push_back(p);
    }
    if (!converted.points.empty()) shown.push_back(std::move(converted));
  }
  return shown;
}

}  // namespace tl::plot
