#include "core/plot/crossover.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace tl::plot {
namespace {

struct LogPoint {
  double log_x;
  double log_y;
};

std::vector<LogPoint> to_log_log(const PlotSeries& series) {
  std::vector<LogPoint> points;
  points.reserve(series.points.size());
  for (const PlotPoint& p : series.points) {
    if (!(p.x > 0) || !(p.y > 0) || !std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    points.push_back({std::log10(p.x), std::log10(p.y)});
  }
  std::sort(points.begin(), points.end(),
            [](const LogPoint& a, const LogPoint& b) { return a.log_x < b.log_x; });
  return points;
}

// Piecewise-linear interpolation; `log_x` must lie within the points' x range.
double interpolate(const std::vector<LogPoint>& points, double log_x) {
  const auto upper = std::lower_bound(points.begin(), points.end(), log_x,
                                      [](const LogPoint& p, double x) { return p.log_x < x; });
  if (upper == points.begin()) return upper->log_y;
  if (upper == points.end()) return points.back().log_y;
  const LogPoint& b = *upper;
  const LogPoint& a = *(upper - 1);
  if (b.log_x == a.log_x) return b.log_y;
  const double t = (log_x - a.log_x) / (b.log_x - a.log_x);
  return a.log_y + t * (b.log_y - a.log_y);
}

}  // namespace

std::optional<double> find_crossover(const PlotSeries& baseline, const PlotSeries& challenger) {
  const std::vector<LogPoint> base = to_log_log(baseline);
  const std::vector<LogPoint> other = to_log_log(challenger);
  if (base.empty() || other.empty()) return std::nullopt;
  const double overlap_lo = std::max(base.front().log_x, other.front().log_x);
  const double overlap_hi = std::min(base.back().log_x, other.back().log_x);
  if (overlap_lo > overlap_hi) return std::nullopt;

  // Both curves are linear between the union of their x values, so their difference is too, and
  // its sign changes can be found exactly on that merged grid.
  std::vector<double> grid{overlap_lo, overlap_hi};
  for (const auto* points : {&base, &other}) {
    for (const LogPoint& p : *points) {
      if (p.log_x > overlap_lo && p.log_x < overlap_hi) grid.push_back(p.log_x);
    }
  }
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());

  // difference < 0: the challenger is lower there.
  std::vector<double> difference;
  difference.reserve(grid.size());
  for (const double log_x : grid) {
    difference.push_back(interpolate(other, log_x) - interpolate(base, log_x));
  }
  if (difference.back() >= 0) return std::nullopt;

  // The last grid point where the challenger is not lower; it stays lower after the next crossing.
  std::size_t last_not_lower = difference.size();
  for (std::size_t i = difference.size(); i-- > 0;) {
    if (difference[i] >= 0) {
      last_not_lower = i;
      break;
    }
  }
  if (last_not_lower == difference.size()) return std::pow(10.0, grid.front());

  const std::size_t i = last_not_lower;
  const double t = difference[i] / (difference[i] - difference[i + 1]);
  return std::pow(10.0, grid[i] + t * (grid[i + 1] - grid[i]));
}

}  // namespace tl::plot
