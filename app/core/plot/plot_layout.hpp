#pragma once
// Where the plot widget puts its legend and the labels of its ceilings: decided here, in pixels,
// from sizes the widget measures, so that the rules are tested without ImGui and the widget only
// draws (app/ui/widgets/plot_widget.cpp).

#include <cstddef>
#include <span>
#include <vector>

#include "core/plot/view_transform.hpp"

namespace tl::plot {

enum class LegendPlacement { kNone, kAbove, kBeside };

struct LegendRequest {
  double width = 0;           // the whole widget
  std::size_t entries = 0;    // series in the legend
  double row_width = 0;       // every entry side by side, with their spacing
  double widest_entry = 0;    // the widest entry alone
  double spacing = 0;         // between the legend and the plot
  double min_plot_width = 0;  // the data area a legend beside it must leave
};

struct LegendLayout {
  LegendPlacement placement = LegendPlacement::kNone;
  double legend_width = 0;  // beside: one entry a row, this wide; above: the widget's width
  double canvas_width = 0;  // what the axes and data keep
};

// The legend goes above the plot while it fits one row there: it costs one line of height. Once
// it would wrap (the matrix multiply's eleven series), it goes beside the plot, one entry a row,
// where the plot keeps `min_plot_width`; rows of a wrapped legend would take the data's height.
// In a panel too narrow for that it wraps above after all.
[[nodiscard]] LegendLayout place_legend(const LegendRequest& request);

struct LabelSize {
  double width = 0;
  double height = 0;
};

// The right margin the ceilings' labels need beside the data area: the widest label and a gap
// either side (0 with no labels).
[[nodiscard]] double guide_margin_width(std::span<const LabelSize> labels, double gap);

// The ceilings' labels in the right margin, outside the data area `area`: each as close to its
// line's height `line_y[i]` (pixels) as the others allow, none overlapping another, all within the
// area's height when they fit there. Rectangles in the order of `labels`.
[[nodiscard]] std::vector<PixelRect> place_guide_labels(const PixelRect& area,
                                                        std::span<const double> line_y,
                                                        std::span<const LabelSize> labels,
                                                        double gap);

}  // namespace tl::plot
