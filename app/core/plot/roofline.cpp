#include "core/plot/roofline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/own_ceiling.hpp"
#include "core/plot/tick_format.hpp"

namespace tl::plot {
namespace {

bool positive(double value) {
  return value > 0 && std::isfinite(value);
}

// A share as the timing table writes it: whole percent, two digits below 10 %.
std::string percent(double share) {
  return format_value(share * 100.0, TickFormat::kNumber, share < 0.1 ? 2 : 3) + " %";
}

double highest_roof(const RooflineInputs& inputs) {
  double highest = 0;
  for (const RooflineRoof& roof : inputs.roofs) {
    if (positive(roof.flops_per_second)) highest = std::max(highest, roof.flops_per_second);
  }
  return highest;
}

// A log range padded by `decades` on each side and at least `least_decades` wide, so a single
// point or a cluster still sits inside a readable frame.
AxisRange log_window(double lo, double hi, double decades, double least_decades) {
  double a = std::log10(lo) - decades;
  double b = std::log10(hi) + decades;
  if (b - a < least_decades) {
    const double middle = (a + b) / 2;
    a = middle - least_decades / 2;
    b = middle + least_decades / 2;
  }
  return {std::pow(10.0, a), std::pow(10.0, b)};
}

AxisLayout log_axis(AxisRange range, TickFormat format) {
  AxisLayout axis;
  axis.scale = AxisScale::kLog10;
  axis.format = format;
  axis.range = range;
  axis.ticks = log_ticks(range, format);
  return axis;
}

PixelRect rect_at(double left, double top, const LabelSize& size) {
  return {left, top, left + size.width, top + size.height};
}

// `rect` moved the least to lie inside `area` (its top-left corner kept where it is too large).
PixelRect clamp_into(PixelRect rect, const PixelRect& area) {
  const double width = rect.width();
  const double height = rect.height();
  rect.left = std::max(area.left, std::min(rect.left, area.right - width));
  rect.top = std::max(area.top, std::min(rect.top, area.bottom - height));
  rect.right = rect.left + width;
  rect.bottom = rect.top + height;
  return rect;
}

bool inside(const PixelRect& rect, const PixelRect& area) {
  return rect.left >= area.left && rect.right <= area.right && rect.top >= area.top &&
         rect.bottom <= area.bottom;
}

double overlap_area(const PixelRect& a, const PixelRect& b) {
  const double w = std::min(a.right, b.right) - std::max(a.left, b.left);
  const double h = std::min(a.bottom, b.bottom) - std::max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0.0;
}

// What a spot costs: the area it shares with what is taken, plus its own area for each line it
// crosses (a label across a ceiling reads as part of it). Zero: a free spot.
double spot_cost(const PixelRect& spot, const std::vector<PixelRect>& taken,
                 const std::vector<PixelPoint>& line_ends) {
  double cost = 0;
  for (const PixelRect& other : taken) cost += overlap_area(spot, other);
  for (std::size_t i = 0; i + 1 < line_ends.size(); i += 2) {
    if (segment_crosses_rect(line_ends[i], line_ends[i + 1], spot)) {
      cost += spot.width() * spot.height();
    }
  }
  return cost;
}

}  // namespace

bool segment_crosses_rect(PixelPoint a, PixelPoint b, const PixelRect& rect) {
  // Liang–Barsky: clip the segment's parameter range [0, 1] against each side of the rectangle.
  double t0 = 0;
  double t1 = 1;
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {a.x - rect.left, rect.right - a.x, a.y - rect.top, rect.bottom - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;  // parallel to this side and outside it
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
    if (t0 > t1) return false;
  }
  return true;
}

bool rects_overlap(const PixelRect& a, const PixelRect& b) {
  return overlap_area(a, b) > 0;
}

double ridge_intensity(double peak_flops_per_second, double bandwidth) {
  if (!positive(peak_flops_per_second) || !positive(bandwidth)) return 0;
  return peak_flops_per_second / bandwidth;
}

std::optional<double> attainable_flops(const RooflineInputs& inputs, double intensity) {
  const double roof = highest_roof(inputs);
  const bool slope = positive(inputs.bandwidth_bytes_per_second) && positive(intensity);
  if (slope && roof > 0) return std::min(roof, inputs.bandwidth_bytes_per_second * intensity);
  if (slope) return inputs.bandwidth_bytes_per_second * intensity;
  if (roof > 0) return roof;
  return std::nullopt;
}

Roofline build_roofline(const RooflineInputs& inputs) {
  Roofline out;
  out.left_out = inputs.left_out;
  for (std::size_t i = 0; i < inputs.kernels.size(); ++i) {
    const RooflineKernel& k = inputs.kernels[i];
    if (!positive(k.milliseconds)) {
      out.left_out.push_back(k.name + ": not timed");
      continue;
    }
    if (!positive(k.flops)) {
      // A copy has no place on a FLOP/s axis: its intensity is 0, which a log axis cannot show.
      std::string why = k.name + ": moves bytes and computes nothing, so it has no point here";
      if (positive(k.bytes)) {
        why += " (" + format_value(k.bytes / (k.milliseconds * 1e-3), TickFormat::kByteRate, 3);
        if (k.share) why += " = " + percent(*k.share) + " of the " + k.ceiling;
        why += ")";
      }
      out.left_out.push_back(why);
      continue;
    }
    if (!positive(k.bytes)) {
      out.left_out.push_back(k.name +
                             ": the lesson counts no bytes for it, so it has no intensity");
      continue;
    }
    RooflinePoint point;
    point.kernel = i;
    point.intensity = k.flops / k.bytes;
    point.flops_per_second = k.flops / (k.milliseconds * 1e-3);
    point.label = k.share ? k.name + ": " + format_share(*k.share) : k.name;
    point.detail = k.name + ": " + format_value(point.flops_per_second, TickFormat::kFlopRate, 3) +
                   " at " + format_value(point.intensity, TickFormat::kNumber, 3) + " FLOP/B";
    point.detail += k.share ? " = " + percent(*k.share) + " of the " + k.ceiling
                            : " (its ceiling was not measured)";
    out.points.push_back(std::move(point));
  }
  if (out.points.empty()) {
    out.empty_reason = inputs.kernels.empty()
                           ? "No timed kernel yet: Launch times this lesson's kernels."
                           : "None of the timed kernels both computes and moves bytes: a roofline "
                             "point needs both (FLOP per byte).";
    return out;
  }

  const double bandwidth = inputs.bandwidth_bytes_per_second;
  const double top = highest_roof(inputs);
  // x: every point and every ridge, padded half a decade, at least three decades wide.
  double x_lo = std::numeric_limits<double>::infinity();
  double x_hi = 0;
  double y_lo = std::numeric_limits<double>::infinity();
  double y_hi = 0;
  for (const RooflinePoint& p : out.points) {
    x_lo = std::min(x_lo, p.intensity);
    x_hi = std::max(x_hi, p.intensity);
    y_lo = std::min(y_lo, p.flops_per_second);
    y_hi = std::max(y_hi, p.flops_per_second);
  }
  for (const RooflineRoof& roof : inputs.roofs) {
    const double ridge = ridge_intensity(roof.flops_per_second, bandwidth);
    if (ridge > 0) {
      x_lo = std::min(x_lo, ridge);
      x_hi = std::max(x_hi, ridge);
    }
    if (positive(roof.flops_per_second)) y_hi = std::max(y_hi, roof.flops_per_second);
  }
  const AxisRange x_range = log_window(x_lo, x_hi, 0.5, 3.0);
  // y: the points, the roofs, and the slope where the lowest-intensity point sits.
  if (positive(bandwidth)) {
    y_lo = std::min(y_lo, bandwidth * out.points.front().intensity);
    for (const RooflinePoint& p : out.points) y_lo = std::min(y_lo, bandwidth * p.intensity);
    if (top == 0) y_hi = std::max(y_hi, bandwidth * x_range.max);
  }
  const AxisRange y_range = log_window(y_lo, y_hi, 0.3, 2.0);
  out.x = log_axis(x_range, TickFormat::kNumber);
  out.y = log_axis(y_range, TickFormat::kFlopRate);

  if (positive(bandwidth)) {
    // The slope, from where it enters the frame to the ridge of the highest roof (or the frame).
    double x0 = x_range.min;
    if (bandwidth * x0 < y_range.min) x0 = y_range.min / bandwidth;
    double x1 = top > 0 ? ridge_intensity(top, bandwidth) : x_range.max;
    if (bandwidth * x1 > y_range.max) x1 = y_range.max / bandwidth;
    if (x1 > x0) {
      out.lines.push_back(
          {inputs.bandwidth_name + ": " + format_value(bandwidth, TickFormat::kByteRate, 3), x0,
           bandwidth * x0, x1, bandwidth * x1, true});
    }
  }
  for (const RooflineRoof& roof : inputs.roofs) {
    if (!positive(roof.flops_per_second)) continue;
    const double ridge = ridge_intensity(roof.flops_per_second, bandwidth);
    const double x0 = ridge > 0 ? std::max(ridge, x_range.min) : x_range.min;
    out.lines.push_back(
        {roof.name + ": " + format_value(roof.flops_per_second, TickFormat::kFlopRate, 3), x0,
         roof.flops_per_second, x_range.max, roof.flops_per_second, false});
  }
  return out;
}

RooflinePixels layout_roofline(const Roofline& roofline, const PixelRect& area,
                               std::span<const LabelSize> point_label_sizes,
                               std::span<const LabelSize> line_label_sizes, double marker_radius,
                               double gap) {
  RooflinePixels out;
  out.view = ViewTransform(area, {roofline.x.range, AxisScale::kLog10},
                           {roofline.y.range, AxisScale::kLog10});
  const ViewTransform& view = out.view;
  std::vector<PixelRect> taken;  // labels placed so far and the markers, which labels avoid
  for (const RooflinePoint& p : roofline.points) {
    const PixelPoint centre{view.x_to_pixel(p.intensity), view.y_to_pixel(p.flops_per_second)};
    out.points.push_back(centre);
    taken.push_back({centre.x - marker_radius, centre.y - marker_radius, centre.x + marker_radius,
                     centre.y + marker_radius});
  }

  // The lines' labels, each at the first of its spots that leaves the markers and the labels
  // placed before it alone (else the one that overlaps them least).
  for (const RooflineLine& line : roofline.lines) {
    out.line_ends.push_back({view.x_to_pixel(line.x0), view.y_to_pixel(line.y0)});
    out.line_ends.push_back({view.x_to_pixel(line.x1), view.y_to_pixel(line.y1)});
  }
  for (std::size_t i = 0; i < roofline.lines.size(); ++i) {
    const RooflineLine& line = roofline.lines[i];
    const PixelPoint a = out.line_ends[2 * i];
    const PixelPoint b = out.line_ends[2 * i + 1];
    const LabelSize size = i < line_label_sizes.size() ? line_label_sizes[i] : LabelSize{};
    std::vector<PixelRect> spots;
    if (line.memory) {
      // Under the slope (clear of the line, which rises to the right), at points along its length.
      for (const double along : {0.15, 0.35, 0.55, 0.05, 0.75}) {
        const PixelPoint at{a.x + (b.x - a.x) * along, a.y + (b.y - a.y) * along};
        spots.push_back(clamp_into(rect_at(at.x + gap, at.y + gap, size), area));
      }
    } else {
      // Above the roof at the right edge, else below it, else further left along it.
      for (int step = 0; step < 4; ++step) {
        const double right = b.x - gap - step * (size.width + gap);
        spots.push_back(
            clamp_into(rect_at(right - size.width, b.y - gap - size.height, size), area));
        spots.push_back(clamp_into(rect_at(right - size.width, b.y + gap, size), area));
      }
    }
    PixelRect rect = spots.front();
    double least = std::numeric_limits<double>::infinity();
    for (const PixelRect& spot : spots) {
      const double cost = spot_cost(spot, taken, out.line_ends);
      if (cost < least) {
        least = cost;
        rect = spot;
      }
      if (cost == 0) break;
    }
    out.line_labels.push_back(rect);
    taken.push_back(rect);
  }

  // The points' labels: the first spot around the point, nearest first, that leaves the area and
  // every other label and marker alone; where none does, the one that overlaps least.
  const double reach = marker_radius + gap;
  for (std::size_t i = 0; i < roofline.points.size(); ++i) {
    const PixelPoint c = out.points[i];
    const LabelSize size = i < point_label_sizes.size() ? point_label_sizes[i] : LabelSize{};
    const double w = size.width;
    const double h = size.height;
    PixelRect best{};
    double best_overlap = std::numeric_limits<double>::infinity();
    bool placed = false;
    for (int ring = 0; ring < 6 && !placed; ++ring) {
      const double d = reach + ring * (h + gap);
      const std::array<PixelRect, 8> spots = {
          rect_at(c.x + d, c.y - h / 2, size),                  // right
          rect_at(c.x - d - w, c.y - h / 2, size),              // left
          rect_at(c.x - w / 2, c.y - d - h, size),              // above
          rect_at(c.x - w / 2, c.y + d, size),                  // below
          rect_at(c.x + d * 0.7, c.y - d * 0.7 - h, size),      // above right
          rect_at(c.x + d * 0.7, c.y + d * 0.7, size),          // below right
          rect_at(c.x - d * 0.7 - w, c.y - d * 0.7 - h, size),  // above left
          rect_at(c.x - d * 0.7 - w, c.y + d * 0.7, size),      // below left
      };
      for (const PixelRect& spot : spots) {
        if (inside(spot, area) && spot_cost(spot, taken, out.line_ends) == 0) {
          best = spot;
          placed = true;
          break;
        }
        const PixelRect kept = clamp_into(spot, area);
        const double kept_cost = spot_cost(kept, taken, out.line_ends);
        if (kept_cost < best_overlap) {
          best_overlap = kept_cost;
          best = kept;
        }
      }
    }
    out.point_labels.push_back(best);
    taken.push_back(best);
    const PixelPoint nearest{std::clamp(c.x, best.left, best.right),
                             std::clamp(c.y, best.top, best.bottom)};
    const double distance = std::hypot(nearest.x - c.x, nearest.y - c.y);
    out.leaders.push_back(distance > reach + gap ? std::optional<PixelSegment>({c, nearest})
                                                 : std::nullopt);
  }
  return out;
}

}  // namespace tl::plot
