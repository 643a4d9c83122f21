// The precision lesson's tabs. Bits: a typed value rounded to each format (the model's
// round_typed_value), its sign, exponent and mantissa drawn as coloured cells. Errors: the timed
// run's table of results, errors and times. They draw what the model and the runner computed.

#include "precision_panels.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/format.hpp"

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

// One cell per bit, coloured by field, the bit's value written in it.
void draw_bit_cells(const numeric::DecodedValue& d) {
  const numeric::FormatLayout l = numeric::layout(d.format);
  const float cell = ImGui::GetTextLineHeight() * 1.1f;
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
    draw->AddText(ImVec2{a.x + cell * 0.3f, a.y + cell * 0.05f}, IM_COL32(255, 255, 255, 255),
                  text);
  }
  ImGui::Dummy(ImVec2{static_cast<float>(l.bits()) * cell + 8.0f, cell});
}

}  // namespace

void draw_bits_panel(LessonViewContext& context, const Fonts& fonts) {
  (void)context;
  heading(fonts, "One value in four formats");
  // What the learner typed is this panel's own input, kept across frames.
  static char typed[64] = "0.1";
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  ImGui::InputText("value", typed, sizeof(typed));
  ImGui::SameLine();
  ImGui::TextColored(palette().muted, "e.g. 0.1, 1/3 as 0.333333333, 65504, 70000, 1e-5, 1e-8");
  ImGui::TextColored(kSignColor, "sign");
  ImGui::SameLine();
  ImGui::TextColored(kExponentColor, "exponent");
  ImGui::SameLine();
  ImGui::TextColored(kMantissaColor, "mantissa");
  for (FloatFormat format : numeric::kFloatFormats) {
    auto rounded = numeric::round_typed_value(format, typed);
    ImGui::Separator();
    const numeric::FormatLayout l = numeric::layout(format);
    ImGui::PushFont(fonts.bold);
    ImGui::Text("%s  (1 + %d + %d bits)", std::string(numeric::display_name(format)).c_str(),
                l.exponent_bits, l.mantissa_bits);
    ImGui::PopFont();
    if (!rounded) {
      ImGui::TextColored(palette().error, "%s", rounded.message().c_str());
      continue;
    }
    draw_bit_cells(rounded->decoded);
    ImGui::Text("%s = %.9g", rounded->decoded.formula().c_str(), rounded->decoded.value);
    ImGui::Text("error %.3g (relative %.3g); the next value up is %.3g away",
                rounded->absolute_error, rounded->relative_error, rounded->decoded.step);
    if (rounded->overflowed) ImGui::TextColored(palette().error, "overflow: too large, infinity");
    if (rounded->underflowed) ImGui::TextColored(palette().error, "underflow: too small, zero");
    if (rounded->went_subnormal) {
      ImGui::TextColored(palette().warning,
                         "subnormal: below the smallest normal value, fewer "
                         "significant bits");
    }
    const numeric::FormatRange r = numeric::range(format);
    ImGui::TextColored(palette().muted,
                       "largest %.4g, smallest normal %.3g, smallest subnormal %.3g, step near 1 "
                       "%.3g",
                       r.max_finite, r.min_normal, r.min_subnormal, r.step_at_one);
  }
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
