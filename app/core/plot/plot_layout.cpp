#include "core/plot/plot_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tl::plot {

LegendLayout place_legend(const LegendRequest& r) {
  LegendLayout layout;
  layout.canvas_width = r.width;
  if (r.entries == 0) return layout;
  layout.legend_width = r.width;
  if (r.row_width <= r.width) {
    layout.placement = LegendPlacement::kAbove;
    return layout;
  }
  const double beside_canvas = r.width - r.widest_entry - r.spacing;
  if (beside_canvas >= r.min_plot_width) {
    layout.placement = LegendPlacement::kBeside;
    layout.legend_width = r.widest_entry;
    layout.canvas_width = beside_canvas;
    return layout;
  }
  layout.placement = LegendPlacement::kAbove;
  return layout;
}

double guide_margin_width(std::span<const LabelSize> labels, double gap) {
  double widest = 0;
  for (const LabelSize& label : labels) widest = std::max(widest, label.width);
  return widest > 0 ? widest + 2 * gap : 0.0;
}

std::vector<PixelRect> place_guide_labels(const PixelRect& area, std::span<const double> line_y,
                                          std::span<const LabelSize> labels, double gap) {
  const std::size_t count = std::min(line_y.size(), labels.size());
  std::vector<double> tops(count);
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto y_of = [&](std::size_t i) {
    return std::isfinite(line_y[i]) ? line_y[i] : area.bottom;
  };
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return y_of(a) < y_of(b); });
  // Top to bottom: centred on the line, clamped to the area, below the label above it.
  double next_free = area.top;
  for (std::size_t i : order) {
    double top = y_of(i) - labels[i].height / 2;
    top = std::clamp(top, area.top, std::max(area.top, area.bottom - labels[i].height));
    top = std::max(top, next_free);
    tops[i] = top;
    next_free = top + labels[i].height + gap / 2;
  }
  // Bottom to top: where the last ran past the area's bottom, push the column back up as far as
  // the top allows.
  double limit = area.bottom;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const std::size_t i = *it;
    if (tops[i] + labels[i].height > limit) tops[i] = limit - labels[i].height;
    limit = tops[i] - gap / 2;
  }
  if (!order.empty() && tops[order.front()] < area.top) {
    // Taller than the area altogether: from the top down, overlapping nothing (the widget clips).
    double next = area.top;
    for (std::size_t i : order) {
      tops[i] = next;
      next += labels[i].height + gap / 2;
    }
  }
  std::vector<PixelRect> rects(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double left = area.right + gap;
    rects[i] = {left, tops[i], left + labels[i].width, tops[i] + labels[i].height};
  }
  return rects;
}

}  // namespace tl::plot
