// The precision lesson's tabs. Bits: a typed value rounded to each format (the model's
// round_typed_value), its sign, exponent and mantissa drawn as coloured cells. Errors: the timed
// run's table of results, errors and times. They draw what the model and the runner computed.

#include "precision_panels.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "core/format.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui::precision_views {
namespace {

using numeric::FloatFormat;

const ImVec4 kSignColor{0.85f, 0.35f, 0.35f, 1.0f};
const ImVec4 kExponentColor{0.30f, 0.70f, 0.40f, 1.0f};
const ImVec4 kMantissaColor{0.35f, 0.55f, 0.90f, 1.0f};

bool heading(const Fonts& fonts, const char* text) {
  ImGui::PushFont(fonts.bold);
  ImGui::TextWrapped("%s", text);
  ImGui::PopFont();
  return true;
}

// One cell per bit, coloured by field, the bit's value written in it; cells a little smaller than
// a line, so FP32's 32 bits and the value beside them fit a laptop's results panel.
void draw_bit_cells(const numeric::DecodedValue& d) {
  const numeric::FormatLayout l = numeric::layout(d.format);
  const float cell = std::floor(ImGui::GetTextLineHeight() * 0.95f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int i = 0; i < l.bits(); ++i) {
    const int bit = l.bits() - 1 - i;
    const ImVec4 color =
        i == 0 ? kSignColor : (bit >= l.mantissa_bits ? kExponentColor : kMantissaColor);
    const float gap = (i > 0 ? 3.0f : 0.0f) + (i > l.exponent_bits ? 3.0f : 0.0f);
    const ImVec2 a{origin.x + static_cast<float>(i) * cell + gap, origin.y};
    const ImVec2 b{a.x + cell - 1.0f, a.y + cell};
    draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(color));
    const char text[2] = {((d.bits >> bit) & 1u) != 0 ? '1' : '0', 0};
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddText(ImVec2{a.x + (cell - size.x) * 0.5f, a.y + (cell - size.y) * 0.5f},
                  IM_COL32(255, 255, 255, 255), text);
  }
  ImGui::Dummy(ImVec2{static_cast<float>(l.bits()) * cell + 8.0f, cell});
}

// The next item on this line where it fits, else on the next one.
void same_line_if_fits(float width) {
  ImGui::SameLine();
  if (width > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}

}  // namespace

void draw_bits_panel(LessonViewContext& context, const Fonts& fonts) {
  (void)context;
  // A scrolling region of its own: the results panel around it does not scroll (its plot must
  // not), and at a large scale the four formats need more than it holds. At 1280 x 720 and scale
  // 1 all four show without scrolling: one row each.
  ImGui::BeginChild("bits", ImGui::GetContentRegionAvail(), false);
  // What the learner typed is this panel's own input, kept across frames.
  static char typed[64] = "0.1";
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("One value in four formats");
  ImGui::PopFont();
  same_line_if_fits(ImGui::GetFontSize() * 12.0f);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::InputText("value", typed, sizeof(typed));
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("e.g. 0.1, 1/3 as 0.333333333, 65504, 70000, 1e-5, 1e-8");
  }
  for (const auto& [label, color] :
       {std::pair{"sign", kSignColor}, std::pair{"exponent", kExponentColor},
        std::pair{"mantissa", kMantissaColor}}) {
    same_line_if_fits(ImGui::CalcTextSize(label).x);
    ImGui::TextColored(color, "%s", label);
  }
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
  if (ImGui::BeginTable("formats", 4, kFlags)) {
    ImGui::TableSetupColumn("format");
    ImGui::TableSetupColumn("bits");
    ImGui::TableSetupColumn("value held");
    ImGui::TableSetupColumn("relative error", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (FloatFormat format : numeric::kFloatFormats) {
      auto rounded = numeric::round_typed_value(format, typed);
      const numeric::FormatLayout l = numeric::layout(format);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushFont(fonts.bold);
      ImGui::TextUnformatted(std::string(numeric::display_name(format)).c_str());
      ImGui::PopFont();
      if (ImGui::IsItemHovered()) {
        const numeric::FormatRange r = numeric::range(format);
        wrapped_tooltip(
            "1 + %d + %d bits: sign, exponent, mantissa\nlargest %.4g, smallest normal %.3g, "
            "smallest subnormal %.3g, step near 1 %.3g",
            l.exponent_bits, l.mantissa_bits, r.max_finite, r.min_normal, r.min_subnormal,
            r.step_at_one);
      }
      ImGui::TableNextColumn();
      if (!rounded) {
        ImGui::TextColored(palette().error, "%s", rounded.message().c_str());
        continue;
      }
      draw_bit_cells(rounded->decoded);
      ImGui::TableNextColumn();
      ImGui::Text("%.9g", rounded->decoded.value);
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("%s; the next value up is %.3g away", rounded->decoded.formula().c_str(),
                        rounded->decoded.step);
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.2g", rounded->relative_error);
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("%.3g off the value typed", rounded->absolute_error);
      }
      if (rounded->overflowed) ImGui::TextColored(palette().error, "overflow: infinity");
      if (rounded->underflowed) ImGui::TextColored(palette().error, "underflow: zero");
      if (rounded->went_subnormal) {
        ImGui::TextColored(palette().warning, "subnormal: fewer significant bits");
        if (ImGui::IsItemHovered()) {
          wrapped_tooltip("Below the smallest normal value: the leading bits are zeros");
        }
      }
    }
    ImGui::EndTable();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped(
      "Hover a format for its range, a value for its exponent and mantissa and the gap to the "
      "next one.");
  ImGui::PopStyleColor();
  ImGui::EndChild();
}

void draw_errors_panel(LessonViewContext& context, const Fonts& fonts) {
  heading(fonts, "The same products in six variants");
  const compute::PrecisionReport* report =
      compute::precision_report(context.state().lesson_picture);
  if (report == nullptr) {
    ImGui::TextColored(palette().muted, "Launch to see it: the timed run records it.");
    return;
  }
  const auto& p = report->params;
  ImGui::TextWrapped(
      "dot product of %s elements (data %s), float64 result %.17g; matrix product "
      "%u x %u x %u. Errors are relative to float64 on the FP32 data.",
      format_count(p.n).c_str(), std::string(lessons::to_string(p.data)).c_str(), report->exact_dot,
      p.size, p.size, p.size);
  if (!report->on_gpu) {
    ImGui::TextColored(palette().warning,
                       "Emulator timings: the CPU does every rounding in software. The errors are "
                       "the GPU's, bit for bit.");
  }
  if (ImGui::BeginTable("precision", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    for (const char* column :
         {"variant", "dot result", "dot error", "matmul RMS error", "dot ms", "matmul ms"}) {
      ImGui::TableSetupColumn(column);
    }
    ImGui::TableHeadersRow();
    for (const compute::PrecisionVariantResult& v : report->results) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(lessons::variant_label(v.variant).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.9g", v.dot);
      ImGui::TableNextColumn();
      const bool bad = !v.dot_within;
      ImGui::TextColored(bad ? palette().error : ImGui::GetStyleColorVec4(ImGuiCol_Text), "%.3g%s",
                         v.dot_error, v.dot_checked ? "" : " (not checked)");
      ImGui::TableNextColumn();
      if (v.matmul_not_finite != 0) {
        ImGui::TextColored(palette().error, "%.3g, %s inf/NaN", v.matmul_error,
                           format_count(v.matmul_not_finite).c_str());
      } else {
        ImGui::Text("%.3g", v.matmul_error);
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.4g", v.dot_time.median_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.4g", v.matmul_time.median_ms);
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  ImGui::TextWrapped("Rounding the inputs alone (exact arithmetic on the rounded inputs):");
  if (ImGui::BeginTable("inputs", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    for (const char* column : {"inputs in", "dot error", "matmul RMS error"}) {
      ImGui::TableSetupColumn(column);
    }
    ImGui::TableHeadersRow();
    for (const compute::PrecisionInputError& in : report->inputs) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::string(numeric::display_name(in.format)).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.3g", in.dot_error);
      ImGui::TableNextColumn();
      ImGui::Text("%.3g", in.matmul_error);
    }
    ImGui::EndTable();
  }
  ImGui::TextWrapped("Check: %s", report->describe_check().c_str());
}

}  // namespace tl::ui::precision_views
