#pragma once
// The roofline of the current lesson's timed kernels: arithmetic intensity (floating-point
// operations per byte the kernel must move to and from memory, as the lesson counts them) on x,
// achieved FLOP/s on y, both log10. The device's memory bandwidth is the slope y = bandwidth × x;
// each compute ceiling is a flat line from its ridge point (peak / bandwidth) on. Every kernel is
// a point labelled with its share of its own ceiling, the same figure as the timing table's share
// column (compute/lessons/own_ceilings.hpp computes it; this module only places it).
//
// All geometry is here, without ImGui: the axes, the lines, the points and where their labels go
// in pixels, from label sizes the panel measures (app/ui/panels/roofline_panel.cpp only draws).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/plot/axis.hpp"
#include "core/plot/dash_pattern.hpp"
#include "core/plot/plot_layout.hpp"
#include "core/plot/view_transform.hpp"

namespace tl::plot {

// A flat compute ceiling: cuBLAS SGEMM measured on this device, or cuBLAS at a tensor precision
// timed in the same run.
struct RooflineRoof {
  std::string name;  // "cuBLAS SGEMM 4096³, measured"
  double flops_per_second = 0;
};

// One timed kernel, as the lesson reports it.
struct RooflineKernel {
  std::string name;
  double bytes = 0;  // the bytes it must move (the lesson's count), per run
  double flops = 0;  // floating-point operations, per run
  double milliseconds = 0;
  std::optional<double> share;  // of its own ceiling (the share column); none where unknown
  std::string ceiling;          // what the share is of: "device copy", "cuBLAS SGEMM", a row
};

struct RooflineInputs {
  double bandwidth_bytes_per_second = 0;  // 0: not measured
  std::string bandwidth_name;             // "device copy, measured"
  std::vector<RooflineRoof> roofs;
  std::vector<RooflineKernel> kernels;
  std::vector<std::string> left_out;  // what the caller already left out, and why
};

struct RooflinePoint {
  std::size_t kernel = 0;  // index into RooflineInputs::kernels
  double intensity = 0;    // FLOP per byte
  double flops_per_second = 0;
  std::string label;   // "tiled 16×16: 42%" (format_share(); the name alone where it is unknown)
  std::string detail;  // "tiled 16×16: 2.1 TFLOP/s at 0.25 FLOP/B = 42 % of the device copy"
};

// A ceiling line in data coordinates, from (x0, y0) to (x1, y1).
struct RooflineLine {
  std::string label;
  double x0 = 0;
  double y0 = 0;
  double x1 = 0;
  double y1 = 0;
  bool memory = false;  // the bandwidth slope (the rest are flat compute ceilings)
};

struct Roofline {
  AxisLayout x;                     // FLOP per byte
  AxisLayout y;                     // FLOP/s
  std::vector<RooflineLine> lines;  // the slope first where there is one, then the roofs
  std::vector<RooflinePoint> points;
  // Kernels that are not points, each with why ("copy: moves bytes and computes nothing ...").
  std::vector<std::string> left_out;
  // Why nothing can be drawn at all (no kernel with both bytes and flops, no time); empty when
  // there is a plot.
  std::string empty_reason;
};

// Where the slope meets a flat ceiling: peak / bandwidth, in FLOP per byte (0 where either is
// unknown).
[[nodiscard]] double ridge_intensity(double peak_flops_per_second, double bandwidth);

// The best rate a kernel of `intensity` can reach under the inputs' ceilings: the lower of the
// slope's bandwidth × intensity and the highest roof; the one that is known where only one is;
// none where neither is.
[[nodiscard]] std::optional<double> attainable_flops(const RooflineInputs& inputs,
                                                     double intensity);

// The points, the lines over a range that shows both and every ridge, and the axes' ticks.
[[nodiscard]] Roofline build_roofline(const RooflineInputs& inputs);

// The roofline in pixels, for the panel to draw.
struct RooflinePixels {
  ViewTransform view;
  std::vector<PixelPoint> points;       // each point's centre, in the order of Roofline::points
  std::vector<PixelRect> point_labels;  // where each point's label goes
  // A thin line from a point to its label where the label had to go further than beside it (the
  // label's nearest edge point to the point's centre); none where it sits beside it.
  std::vector<std::optional<PixelSegment>> leaders;
  std::vector<PixelRect> line_labels;  // where each line's label goes, in order of lines
  std::vector<PixelPoint> line_ends;   // two per line: its ends, clipped to the data area
};

// Places everything inside `area` (the data area, axes drawn outside it): each line's label beside
// its line (a roof's above it at the right edge, the slope's under its lower part), then each
// point's label beside its point, trying positions around it at growing distances so that no
// label overlaps another label or a marker (`marker_radius`), crosses a line, or leaves the area,
// where any position allows it; else the position that does least of that.
[[nodiscard]] RooflinePixels layout_roofline(const Roofline& roofline, const PixelRect& area,
                                             std::span<const LabelSize> point_label_sizes,
                                             std::span<const LabelSize> line_label_sizes,
                                             double marker_radius, double gap);

// Whether the segment from `a` to `b` passes through `rect` (or ends inside it).
[[nodiscard]] bool segment_crosses_rect(PixelPoint a, PixelPoint b, const PixelRect& rect);

// Whether two rectangles share any area (touching edges do not count).
[[nodiscard]] bool rects_overlap(const PixelRect& a, const PixelRect& b);

}  // namespace tl::plot
