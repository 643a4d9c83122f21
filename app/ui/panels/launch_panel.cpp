// Launch controls, drawn from the lesson's own parameter list: counts and dimensions typed as text
// ("2^20", "16,16", "auto"), choices as combos, flags as checkboxes; the lesson's presets (the
// article's <<<1, N>>>); Launch. Invalid configurations are explained and can still be launched.
// Each grid and block field shows the device limit that bounds it, beside the field and in its
// tooltip, so the rule is read where the number is typed.

#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/own_ceilings.hpp"
#include "core/format.hpp"
#include "core/launch_config.hpp"
#include "core/launch_field_limits.hpp"
#include "core/plot/tick_format.hpp"
#include "core/stats.hpp"
#include "core/thread_coverage_note.hpp"
#include "core/timing/row_label.hpp"
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
    wrapped_tooltip("%s\n%s%s(Enter applies; e.g. 1000, 2^20, 16,16)", spec.help.c_str(),
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
  if (ImGui::IsItemHovered()) wrapped_tooltip("%s", limit.sentence.c_str());
}

void draw_param_field(AppController& controller, const lessons::ParamSpec& spec,
                      const LaunchControls& controls, const DeviceLimits& limits) {
  const auto it = controls.values.find(spec.name);
  const std::string value = it != controls.values.end() ? it->second : spec.default_value;
  switch (spec.kind) {
    case lessons::ParamKind::kCount:
    case lessons::ParamKind::kDim3: {
      const std::optional<FieldLimit> limit = describe_field_limit(spec, limits);
      draw_text_field(controller, spec, value, controls.lesson_id, limit);
      ImGui::SameLine();
      // Wrapped beside the field at the panel's edge ("K (columns of A, rows of B)" at 1280×720),
      // never cut off there.
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(spec.label.c_str());
      ImGui::PopTextWrapPos();
      if (limit) draw_field_limit(*limit);
      // A kernel that sizes its own blocks (the tiled matrix multiply: TILE × TILE) does not use
      // the field: say what it launches instead of showing a block that is not the one run.
      if (spec.name == "block") {
        if (const auto launched = block_not_used(value, controls.config().block)) {
          ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
          ImGui::TextWrapped("not used: this kernel launches %s threads per block",
                             to_string(*launched).c_str());
          ImGui::PopStyleColor();
        }
      }
      break;
    }
    case lessons::ParamKind::kChoice: {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.5f);
      if (ImGui::BeginCombo(spec.label.c_str(), value.c_str())) {
        for (const std::string& choice : spec.choices) {
          if (ImGui::Selectable(choice.c_str(), choice == value))
            controller.set_param(spec.name, choice);
          // The parameter's help names what each choice does; the list hides the combo's tooltip.
          if (ImGui::IsItemHovered()) wrapped_tooltip("%s", spec.help.c_str());
        }
        ImGui::EndCombo();
      }
      if (ImGui::IsItemHovered()) wrapped_tooltip("%s", spec.help.c_str());
      break;
    }
    case lessons::ParamKind::kFlag: {
      bool on = value == "1" || value == "true" || value == "on";
      if (ImGui::Checkbox(spec.label.c_str(), &on)) controller.set_param(spec.name, on ? "1" : "0");
      if (ImGui::IsItemHovered()) wrapped_tooltip("%s", spec.help.c_str());
      break;
    }
  }
}

// A parameter this device cannot honour (the training lesson's GPUs on one GPU or the emulator) is
// drawn greyed, with the reason under it and on hover, so nobody sets it and wonders.
void draw_param(AppController& controller, const lessons::ParamSpec& spec,
                const LaunchControls& controls, const DeviceLimits& limits) {
  const auto unavailable = controls.unavailable.find(spec.name);
  if (unavailable == controls.unavailable.end()) {
    draw_param_field(controller, spec, controls, limits);
    return;
  }
  ImGui::BeginDisabled();
  draw_param_field(controller, spec, controls, limits);
  ImGui::EndDisabled();
  const std::string& why = unavailable->second;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    wrapped_tooltip("%s", why.c_str());
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped("%s", why.c_str());
  ImGui::PopStyleColor();
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
        wrapped_tooltip("%s", std::string(lesson.summary).c_str());
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) wrapped_tooltip("The lesson: its text, kernels and controls");
}

// The width of the longest word among the labels: the label column is never narrower, so a label
// breaks between words and never inside one ("E/m/u/l/a/t/e/d").
float longest_word_width(const std::vector<std::string>& labels) {
  float widest = 0;
  for (const std::string& label : labels) {
    std::size_t start = 0;
    while (start < label.size()) {
      std::size_t end = label.find(' ', start);
      if (end == std::string::npos) end = label.size();
      widest = std::max(widest, ImGui::CalcTextSize(label.data() + start, label.data() + end).x);
      start = end + 1;
    }
  }
  return widest;
}

// The timed run's table: titled with the launch it measured, the backend named once in its header,
// greyed out once the launch fields no longer match that launch.
void draw_report(AppController& controller) {
  const AppState& state = controller.state();
  const compute::Lesson& lesson = controller.current_lesson();
  const TimedRun& timed = state.timed;
  const std::optional<DeviceCeilings>& ceilings = state.ceilings;
  if (timed.pending) {
    // However long it takes (a size of minutes on the emulator), it shows how far it got and can
    // be stopped; the window draws on meanwhile.
    ImGui::TextColored(palette().muted, "timing %s", timed.config.to_string().c_str());
    if (ImGui::Button("Cancel##timed")) controller.cancel_launch();
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip("Stops the timed run: the table stays empty until the next Launch");
    }
    ImGui::SameLine();
    const std::string caption = progress_caption(timed.progress);
    ImGui::ProgressBar(progress_fraction(timed.progress), {ImGui::GetContentRegionAvail().x, 0},
                       caption.c_str());
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "%s", is_gpu(state.backend)
                    ? "The kernels are timed untraced, several runs each"
                    : "The CPU emulator runs each kernel several times to time it: the bar is "
                      "the grid running now, its blocks done so far");
    }
    return;
  }
  if (!timed.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, timed.cancelled ? palette().muted : palette().error);
    ImGui::TextWrapped("%s", timed.error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (!timed.report) return;
  const compute::LessonReport& r = *timed.report;
  std::vector<std::string> labels;
  bool backend_named = false;
  for (const compute::TimingRow& row : r.rows) {
    labels.push_back(row_label_without_backend(row.name));
    backend_named = backend_named || names_backend(row.name);
  }
  ImGui::TextUnformatted(describe_launch(timed.launched).c_str());
  // The backend of the device rows, once: beside the title where it fits (the rows keep the
  // height), else under it; the whole sentence on hover.
  if (backend_named) {
    const char* shortly = is_gpu(state.backend) ? "device rows: GPU" : "device rows: CPU emulator";
    const char* sentence = is_gpu(state.backend)
                               ? "device rows on the GPU"
                               : "device rows on the CPU emulator: their times are CPU times";
    ImGui::SameLine(0, ImGui::GetFontSize());
    if (ImGui::CalcTextSize(shortly).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
    ImGui::TextColored(palette().muted, "%s", shortly);
    if (ImGui::IsItemHovered()) wrapped_tooltip("%s", sentence);
  }
  const bool stale = !timed.launched.matches(state.controls);
  if (stale) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
    ImGui::TextWrapped("from an earlier launch: the fields have changed since; Launch times them");
    ImGui::PopStyleColor();
  }
  // Greyed out while stale: still there to compare against, but not read as the fields' numbers.
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * (stale ? 0.45f : 1.0f));
  // The numbers keep their width and the labels at least their longest word; where the panel is
  // too narrow for all of it, the rate goes first (it stays in the time's tooltip), then the share.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float cell_gap = style.CellPadding.x * 2;
  const float label_min = std::max(longest_word_width(labels), ImGui::GetFontSize() * 6.0f);
  const float time_width = ImGui::CalcTextSize("888.8 ms").x;
  const float rate_width = ImGui::CalcTextSize("88.8 GFLOP/s").x;
  const float share_width = ImGui::CalcTextSize("100%").x;
  const float avail = ImGui::GetContentRegionAvail().x;
  bool show_share = ceilings.has_value();
  bool show_rate = true;
  auto needed = [&] {
    return label_min + time_width + (show_rate ? rate_width : 0) + (show_share ? share_width : 0) +
           cell_gap * static_cast<float>(2 + show_rate + show_share);
  };
  if (needed() > avail) show_rate = false;
  if (needed() > avail) show_share = false;
  const int columns = 2 + (show_rate ? 1 : 0) + (show_share ? 1 : 0);
  bool any_noisy = false;
  if (ImGui::BeginTable("timed", columns, ImGuiTableFlags_None)) {
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    // Initial widths for the widest usual values, so the numbers are not clipped on the first
    // frame a report appears (fixed columns fit their content one frame late).
    ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthFixed, time_width);
    if (show_rate) ImGui::TableSetupColumn("rate", ImGuiTableColumnFlags_WidthFixed, rate_width);
    if (show_share) {
      ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthFixed, share_width);
    }
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      const compute::TimingRow& row = r.rows[i];
      if (row.stats.empty()) continue;
      any_noisy = any_noisy || spread_too_wide(row.stats);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", labels[i].c_str());
      if (ImGui::IsItemHovered()) wrapped_tooltip("%s", row.name.c_str());
      const RatesAgainstCeilings rates =
          rates_against_ceilings(row.bytes, row.flops, row.stats.median_ms,
                                 row.on_device && ceilings ? &*ceilings : nullptr);
      ImGui::TableNextColumn();
      // A time whose runs spread too widely is marked "~" in the warning colour: a student reads
      // these as facts, and such a figure can be off by half (core/stats.hpp).
      const bool noisy = spread_too_wide(row.stats);
      if (noisy) {
        ImGui::TextColored(palette().warning, "~%s",
                           format_milliseconds(row.stats.median_ms).c_str());
      } else {
        ImGui::Text("%s", format_milliseconds(row.stats.median_ms).c_str());
      }
      if (ImGui::IsItemHovered()) {
        const std::string both = show_rate ? std::string() : "\n" + describe_rates(rates);
        wrapped_tooltip("median of %d runs; min %s, max %s%s%s", row.stats.repeats,
                        format_milliseconds(row.stats.min_ms).c_str(),
                        format_milliseconds(row.stats.max_ms).c_str(),
                        noisy ? ". The runs spread too widely to read a difference from this "
                                "figure: launch again"
                              : "",
                        both.c_str());
      }
      if (show_rate) ImGui::TableNextColumn();
      // The rate the row is limited by: GFLOP/s where it computes more than it moves.
      if (!show_rate) {
        // in the time's tooltip
      } else if (row.flops > 0 && row.flops > row.bytes) {
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
      if (show_rate && ImGui::IsItemHovered()) {
        const std::string both = describe_rates(rates);
        if (!both.empty()) wrapped_tooltip("%s", both.c_str());
      }
      // The kernel's share of its own ceiling: what this device does at best (its copy, cuBLAS
      // SGEMM), or for a tensor rung cuBLAS at the rung's precision in this run.
      if (show_share) {
        ImGui::TableNextColumn();
        const auto share = compute::share_of_own_ceiling(lesson, r, row, &*ceilings);
        if (share) {
          ImGui::TextUnformatted(format_share(share->share).c_str());
          if (ImGui::IsItemHovered()) {
            wrapped_tooltip(
                share->same_run ? "of %s, timed in this run" : "of this device's %s, measured here",
                share->ceiling.c_str());
          }
        }
      }
    }
    ImGui::EndTable();
  }
  if (any_noisy) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
    ImGui::TextWrapped(
        "~: the runs spread too widely to read a difference (the slowest took over "
        "1.5× as long as the fastest); launch again for steadier figures");
    ImGui::PopStyleColor();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  for (const std::string& note : r.notes) ImGui::TextWrapped("%s", note.c_str());
  ImGui::PopStyleColor();
  if (r.check) {
    ImGui::PushStyleColor(ImGuiCol_Text, r.check->passed ? palette().ok : palette().error);
    ImGui::TextWrapped("%s", r.check->description.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopStyleVar();
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
      wrapped_tooltip("They keep their values; the lesson's steps still set them. F5 shows them.");
    }
  }
  for (std::size_t i = 0; i < c.presets.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    if (ImGui::Button(c.presets[i].label.c_str())) controller.apply_preset(i);
    if (ImGui::IsItemHovered()) wrapped_tooltip("%s", c.presets[i].help.c_str());
  }

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
}

void draw_launch_report(AppController& controller) {
  draw_report(controller);
  draw_counters_section(controller);
}

float launch_footer_height(const Fonts& fonts) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return style.ItemSpacing.y * 3 + fonts.mono->FontSize + ImGui::GetFrameHeight() + 1.0f;
}

void draw_launch_footer(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const LaunchControls& c = state.controls;
  ImGui::Separator();
  // The configuration Launch will run, on one line right above the button.
  ImGui::PushFont(fonts.mono);
  ImGui::TextUnformatted(c.config().to_string().c_str());
  ImGui::PopFont();
  const bool busy = !controller.can_launch();
  ImGui::BeginDisabled(busy);
  const char* label = state.launch_problems.empty() ? "Launch" : "Launch anyway";
  if (ImGui::Button(label, {ImGui::GetContentRegionAvail().x, 0})) controller.launch();
  ImGui::EndDisabled();
  // Every state says what a click does; a refused or disabled one also says why.
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    if (busy && state.tracing.running) {
      wrapped_tooltip(
          "The traced launch is running in the background (Cancel above the picture): Launch "
          "is back when it and its timing finish");
    } else if (busy) {
      wrapped_tooltip(
          "Measurements are running in the background: Launch is back when they finish");
    } else if (!state.launch_problems.empty()) {
      wrapped_tooltip("CUDA will refuse this configuration: launch it to see CUDA's own error");
    } else {
      wrapped_tooltip(
          "Runs the kernel once traced, to draw who computed what, then times it untraced in "
          "the background for the table above");
    }
  }
}

}  // namespace tl::ui
