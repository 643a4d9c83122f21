// Launch controls, drawn from the lesson's own parameter list: counts and dimensions typed as text
// ("2^20", "16,16", "auto"), choices as combos, flags as checkboxes; the lesson's presets (the
// article's <<<1, N>>>); Launch. Invalid configurations are explained and can still be launched.
// Each grid and block field shows the device limit that bounds it, beside the field and in its
// tooltip, so the rule is read where the number is typed.

#include <imgui_internal.h>

#include <array>
#include <cstring>
#include <map>
#include <string>

#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"
#include "core/launch_field_limits.hpp"
#include "core/plot/tick_format.hpp"
#include "core/stats.hpp"
#include "core/thread_coverage_note.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

// Text being typed into a field, kept between frames until Enter applies it. Only UI state.
struct EditBuffer {
  std::array<char, 64> text{};
};

void copy_into(EditBuffer& buffer, const std::string& value) {
  std::strncpy(buffer.text.data(), value.c_str(), buffer.text.size() - 1);
  buffer.text.back() = '\0';
}

void draw_text_field(AppController& controller, const lessons::ParamSpec& spec,
                     const std::string& value, const std::string& lesson_id,
                     const std::optional<FieldLimit>& limit) {
  static std::map<std::string, EditBuffer> buffers;
  EditBuffer& buffer = buffers[lesson_id + "/" + spec.name];
  const std::string id = "##" + spec.name;
  // Show the lesson's value unless the user is typing in this very field.
  if (ImGui::GetActiveID() != ImGui::GetID(id.c_str())) copy_into(buffer, value);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.5f);
  if (ImGui::InputText(id.c_str(), buffer.text.data(), buffer.text.size(),
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
    controller.set_param(spec.name, buffer.text.data());
  }
  if (ImGui::IsItemDeactivated() && std::string(buffer.text.data()) != value) {
    // Leaving the field without Enter applies the value too, as people expect from a form.
    controller.set_param(spec.name, buffer.text.data());
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s\n%s%s(Enter applies; e.g. 1000, 2^20, 16,16)", spec.help.c_str(),
                      limit ? limit->sentence.c_str() : "", limit ? "\n" : "");
  }
}

// The field's device limit, muted, after its label where the line has room, else under it.
void draw_field_limit(const FieldLimit& limit) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  ImGui::SameLine();
  if (ImGui::CalcTextSize(limit.brief.c_str()).x + spacing > ImGui::GetContentRegionAvail().x) {
    ImGui::NewLine();
  }
  ImGui::TextColored(palette().muted, "%s", limit.brief.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", limit.sentence.c_str());
}

void draw_param(AppController& controller, const lessons::ParamSpec& spec,
                const LaunchControls& controls, const DeviceLimits& limits) {
  const auto it = controls.values.find(spec.name);
  const std::string value = it != controls.values.end() ? it->second : spec.default_value;
  switch (spec.kind) {
    case lessons::ParamKind::kCount:
    case lessons::ParamKind::kDim3: {
      const std::optional<FieldLimit> limit = describe_field_limit(spec, limits);
      draw_text_field(controller, spec, value, controls.lesson_id, limit);
      ImGui::SameLine();
      ImGui::TextUnformatted(spec.label.c_str());
      if (limit) draw_field_limit(*limit);
      break;
    }
    case lessons::ParamKind::kChoice: {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.5f);
      if (ImGui::BeginCombo(spec.label.c_str(), value.c_str())) {
        for (const std::string& choice : spec.choices) {
          if (ImGui::Selectable(choice.c_str(), choice == value))
            controller.set_param(spec.name, choice);
          // The parameter's help names what each choice does; the list hides the combo's tooltip.
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.help.c_str());
        }
        ImGui::EndCombo();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.help.c_str());
      break;
    }
    case lessons::ParamKind::kFlag: {
      bool on = value == "1" || value == "true" || value == "on";
      if (ImGui::Checkbox(spec.label.c_str(), &on)) controller.set_param(spec.name, on ? "1" : "0");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.help.c_str());
      break;
    }
  }
}

void draw_lesson_selector(AppController& controller, const LaunchControls& controls) {
  std::string current = controls.lesson_id;
  for (const auto& lesson : lessons::catalog()) {
    if (lesson.id == controls.lesson_id)
      current = std::to_string(lesson.number) + ". " + std::string(lesson.title);
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##lesson", current.c_str())) {
    for (const auto& lesson : lessons::catalog()) {
      const std::string label = std::to_string(lesson.number) + ". " + std::string(lesson.title);
      if (ImGui::Selectable(label.c_str(), lesson.id == controls.lesson_id)) {
        controller.select_lesson(std::string(lesson.id));
      }
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", std::string(lesson.summary).c_str());
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The lesson: its text, kernels and controls");
}

void draw_report(const TimedRun& timed, const std::optional<DeviceCeilings>& ceilings) {
  if (timed.pending) {
    ImGui::TextColored(palette().muted, "timing %s ...", timed.config.to_string().c_str());
    return;
  }
  if (!timed.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::TextWrapped("%s", timed.error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (!timed.report) return;
  const compute::LessonReport& r = *timed.report;
  if (ImGui::BeginTable("timed", ceilings ? 4 : 3, ImGuiTableFlags_None)) {
    // The numbers keep their width; long row names ("Emulated unfused 1/3: product X·Wᵀ (CPU)")
    // wrap in the space left rather than being cut off.
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    // Initial widths for the widest usual values, so the numbers are not clipped on the first
    // frame a report appears (fixed columns fit their content one frame late).
    ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("888.8 ms").x);
    ImGui::TableSetupColumn("rate", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("88.8 GFLOP/s").x);
    if (ceilings) {
      ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthFixed,
                              ImGui::CalcTextSize("100%").x);
    }
    for (const compute::TimingRow& row : r.rows) {
      if (row.stats.empty()) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", row.name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s", format_milliseconds(row.stats.median_ms).c_str());
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("median of %d runs; min %s, max %s", row.stats.repeats,
                          format_milliseconds(row.stats.min_ms).c_str(),
                          format_milliseconds(row.stats.max_ms).c_str());
      }
      ImGui::TableNextColumn();
      const RatesAgainstCeilings rates =
          rates_against_ceilings(row.bytes, row.flops, row.stats.median_ms,
                                 row.on_device && ceilings ? &*ceilings : nullptr);
      // The rate the row is limited by: GFLOP/s where it computes more than it moves.
      if (row.flops > 0 && row.flops > row.bytes) {
        ImGui::TextColored(palette().muted, "%s",
                           plot::format_value(gigaflops(row.flops, row.stats.median_ms) * 1e9,
                                              plot::TickFormat::kFlopRate, 3)
                               .c_str());
      } else if (row.bytes > 0) {
        ImGui::TextColored(
            palette().muted, "%s",
            plot::format_value(gigabytes_per_second(row.bytes, row.stats.median_ms) * 1e9,
                               plot::TickFormat::kByteRate, 3)
                .c_str());
      }
      // Both rates, each against its ceiling: a kernel at 90 % of the copy and 0.5 % of cuBLAS
      // is memory bound, one the other way round is compute bound.
      if (ImGui::IsItemHovered()) {
        const std::string both = describe_rates(rates);
        if (!both.empty()) ImGui::SetTooltip("%s", both.c_str());
      }
      // The kernel's share of what this device does at best (its copy, cuBLAS SGEMM).
      if (ceilings) {
        ImGui::TableNextColumn();
        const auto share =
            row.on_device ? share_of_ceilings(row.bytes, row.flops, row.stats.median_ms, *ceilings)
                          : std::nullopt;
        if (share) {
          ImGui::Text("%.0f%%", share->share * 100.0);
          if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("of this device's %s, measured here",
                              std::string(share->ceiling).c_str());
          }
        }
      }
    }
    ImGui::EndTable();
  }
  for (const std::string& note : r.notes) ImGui::TextColored(palette().muted, "%s", note.c_str());
  if (r.check) {
    ImGui::PushStyleColor(ImGuiCol_Text, r.check->passed ? palette().ok : palette().error);
    ImGui::TextWrapped("%s", r.check->description.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void draw_launch_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const LaunchControls& c = state.controls;

  draw_lesson_selector(controller, c);
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Launch");
  ImGui::PopFont();
  const auto shown = lessons::shown_params(c.specs, state.classroom.presenter);
  for (const lessons::ParamSpec* spec : shown)
    draw_param(controller, *spec, c, state.device.limits);
  if (const std::size_t hidden = c.specs.size() - shown.size(); hidden > 0) {
    ImGui::TextColored(palette().muted, "%zu advanced control%s hidden while presenting", hidden,
                       hidden == 1 ? "" : "s");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "They keep their values; the lesson's steps still set them. F5 shows them.");
    }
  }
  for (std::size_t i = 0; i < c.presets.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    if (ImGui::Button(c.presets[i].label.c_str())) controller.apply_preset(i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.presets[i].help.c_str());
  }

  ImGui::Separator();
  ImGui::PushFont(fonts.mono);
  ImGui::TextWrapped("%s", c.config().to_string().c_str());
  ImGui::PopFont();
  const std::uint64_t launched = c.config().total_threads();
  const std::uint64_t elements = c.elements();
  ImGui::TextColored(palette().muted, "%s threads for %s elements", format_count(launched).c_str(),
                     format_count(elements).c_str());
  const CoverageNote note = describe_coverage(launched, elements, c.elements_per_thread);
  if (!note.text.empty()) {
    ImGui::TextColored(note.warning ? palette().warning : palette().muted, "%s", note.text.c_str());
  }
  for (const LaunchProblem& problem : state.launch_problems) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::TextWrapped("%s", problem.message.c_str());
    ImGui::PopStyleColor();
  }

  const bool busy = !controller.can_launch();
  ImGui::BeginDisabled(busy);
  const char* label = state.launch_problems.empty() ? "Launch" : "Launch anyway";
  if (ImGui::Button(label, {ImGui::GetContentRegionAvail().x, 0})) controller.launch();
  ImGui::EndDisabled();
  // Every state says what a click does; a refused or disabled one also says why.
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    if (busy) {
      ImGui::SetTooltip(
          "Measurements are running in the background: Launch is back when they finish");
    } else if (!state.launch_problems.empty()) {
      ImGui::SetTooltip("CUDA will refuse this configuration: launch it to see CUDA's own error");
    } else {
      ImGui::SetTooltip(
          "Runs the kernel once traced, to draw who computed what, then times it untraced in "
          "the background for the table below");
    }
  }
  ImGui::Spacing();
  draw_report(state.timed, state.ceilings);
}

}  // namespace tl::ui
