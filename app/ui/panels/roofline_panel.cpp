// The roofline of the last timed run: each device kernel at its FLOP per byte and FLOP/s, under
// the measured bandwidth slope and compute ceilings, labelled with its share of its own ceiling.
// The controller builds it (core/plot/roofline.hpp) and core/plot places every line, point and
// label; this panel measures the text and draws.

#include <string>
#include <vector>

#include "core/plot/roofline.hpp"
#include "core/plot/series_marks.hpp"
#include "panels.hpp"
#include "series_style.hpp"
#include "widgets/plot_colors.hpp"
#include "widgets/plot_painter.hpp"

namespace tl::ui {
namespace {

constexpr const char* kEmulatorHeadline = "Emulator: CPU times against this CPU's memcpy";
constexpr const char* kEmulatorWhy =
    "No GPU: each point is an emulated kernel timed on this CPU, and the slope is this CPU's "
    "measured memcpy bandwidth. No GPU figure is drawn or implied; on a GPU the same view uses the "
    "device's measured copy and cuBLAS rates.";
constexpr const char* kGpuHeadline = "Ceilings measured on this GPU";
constexpr const char* kGpuWhy =
    "The slope is this GPU's device-to-device copy, the FP32 roof cuBLAS SGEMM on it (measured "
    "once and cached); tensor roofs are cuBLAS at that precision, timed in the same run. A "
    "kernel's share is of its own ceiling: the same figure as the timing table's share column.";

// The colours of the ceilings: the slope and the roofs apart from each other and from the points.
constexpr std::uint32_t kSlopeColor = plot::rgba(0xF0, 0xA8, 0x30);
constexpr std::uint32_t kRoofColors[] = {plot::rgba(0xE8, 0x6A, 0x2C), plot::rgba(0xF0, 0xE4, 0x42),
                                         plot::rgba(0xE0, 0x80, 0xA0)};

std::vector<plot::LabelSize> sizes_of(const std::vector<std::string>& texts) {
  std::vector<plot::LabelSize> sizes;
  sizes.reserve(texts.size());
  for (const std::string& text : texts) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    sizes.push_back({size.x, size.y});
  }
  return sizes;
}

float widest_tick(const plot::AxisLayout& axis) {
  float widest = 0;
  for (const plot::AxisTick& tick : axis.ticks) {
    if (!tick.label.empty()) widest = std::max(widest, ImGui::CalcTextSize(tick.label.c_str()).x);
  }
  return widest;
}

ImVec2 im(plot::PixelPoint p) {
  return {static_cast<float>(p.x), static_cast<float>(p.y)};
}

void draw_headline(bool emulator) {
  const char* headline = emulator ? kEmulatorHeadline : kGpuHeadline;
  ImGui::TextColored(emulator ? palette().warning : palette().muted, "%s (?)", headline);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(emulator ? kEmulatorWhy : kGpuWhy);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// What is not a point, on one line with the list under the mouse: the plot keeps its height.
void draw_left_out(const std::vector<std::string>& left_out) {
  if (left_out.empty()) return;
  ImGui::SameLine(0, ImGui::GetFontSize());
  const std::string summary = std::to_string(left_out.size()) + " not plotted (?)";
  if (ImGui::CalcTextSize(summary.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  ImGui::TextColored(palette().muted, "%s", summary.c_str());
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    for (const std::string& line : left_out) ImGui::BulletText("%s", line.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace

void draw_roofline_panel(AppController& controller, const Fonts& fonts) {
  (void)fonts;
  const AppState& state = controller.state();
  const RooflineView& view = state.roofline;
  const plot::Roofline& roofline = view.roofline;
  draw_headline(view.emulator);
  if (state.timed.pending) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(palette().muted, "timing ...");
  } else if (state.timed.report && !state.timed.launched.matches(state.controls)) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(palette().warning, "from an earlier launch");
  }
  draw_left_out(roofline.left_out);
  if (!roofline.empty_reason.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("%s", roofline.empty_reason.c_str());
    ImGui::PopStyleColor();
    return;
  }

  const float line = ImGui::GetTextLineHeight();
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 canvas_size{avail.x, std::max(avail.y, line * 6)};
  const ImVec2 canvas_min = ImGui::GetCursorScreenPos();
  // Its own child ("roofline"), like the timing plot's: the layout tests find its rectangle.
  ImGui::BeginChild("roofline", canvas_size, false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::InvisibleButton("##roofline_canvas", canvas_size);
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 canvas_max{canvas_min.x + canvas_size.x, canvas_min.y + canvas_size.y};
  const plot::PixelRect area{canvas_min.x + widest_tick(roofline.y) + 2 * gap,
                             canvas_min.y + line + gap,
                             canvas_max.x - std::max(gap, 0.5f * widest_tick(roofline.x)),
                             canvas_max.y - 2 * (line + gap)};

  std::vector<std::string> point_labels;
  for (const plot::RooflinePoint& p : roofline.points) point_labels.push_back(p.label);
  std::vector<std::string> line_labels;
  for (const plot::RooflineLine& l : roofline.lines) line_labels.push_back(l.label);
  const float radius = std::max(3.0f, line * 0.3f);
  const plot::RooflinePixels pixels = plot::layout_roofline(roofline, area, sizes_of(point_labels),
                                                            sizes_of(line_labels), radius, gap);

  ImDrawList& draw = *ImGui::GetWindowDrawList();
  paint_axes(draw, pixels.view, plot::PlotAxes{roofline.x, roofline.y});
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const char* x_title = "FLOP per byte moved (arithmetic intensity)";
  const ImVec2 x_title_size = ImGui::CalcTextSize(x_title);
  draw.AddText({static_cast<float>(area.left + area.right) * 0.5f - x_title_size.x * 0.5f,
                canvas_max.y - x_title_size.y},
               text, x_title);
  draw.AddText(canvas_min, text, "FLOP/s achieved");

  draw.PushClipRect({static_cast<float>(area.left), static_cast<float>(area.top)},
                    {static_cast<float>(area.right), static_cast<float>(area.bottom)}, true);
  std::size_t roof = 0;
  for (std::size_t i = 0; i < roofline.lines.size(); ++i) {
    const bool slope = roofline.lines[i].memory;
    const ImU32 color =
        plot_color(slope ? kSlopeColor : kRoofColors[roof++ % std::size(kRoofColors)]);
    const plot::PixelPoint ends[2] = {pixels.line_ends[2 * i], pixels.line_ends[2 * i + 1]};
    paint_line(draw, ends, color, 2.0f, slope ? plot::LineDash::kSolid : plot::LineDash::kDashed);
    draw.AddText({static_cast<float>(pixels.line_labels[i].left),
                  static_cast<float>(pixels.line_labels[i].top)},
                 color, line_labels[i].c_str());
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  std::optional<std::size_t> under_mouse;
  for (std::size_t i = 0; i < roofline.points.size(); ++i) {
    const ImU32 color = plot_color(device_series_color(i));
    const ImVec2 centre = im(pixels.points[i]);
    paint_marker(draw, centre, radius, plot::series_mark(i, false).marker, color);
    if (const auto& leader = pixels.leaders[i]) {
      draw.AddLine(im(leader->from), im(leader->to), plot_color(device_series_color(i), 0.6f));
    }
    const plot::PixelRect& place = pixels.point_labels[i];
    draw.AddText({static_cast<float>(place.left), static_cast<float>(place.top)}, color,
                 point_labels[i].c_str());
    const float dx = mouse.x - centre.x;
    const float dy = mouse.y - centre.y;
    if (hovered && dx * dx + dy * dy <= 9 * radius * radius) under_mouse = i;
  }
  draw.PopClipRect();
  if (under_mouse) {
    paint_point_highlight(draw, im(pixels.points[*under_mouse]),
                          plot_color(device_series_color(*under_mouse)));
    wrapped_tooltip("%s", roofline.points[*under_mouse].detail.c_str());
  }
  ImGui::EndChild();
}

}  // namespace tl::ui
