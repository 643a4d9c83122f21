// CPU against GPU over N: the sweep, its progress, the plot and its export.

#include <cmath>
#include <string>
#include <vector>

#include "core/plot/plot_export.hpp"
#include "core/plot/plot_quantity.hpp"
#include "panels.hpp"
#include "widgets/plot_widget.hpp"

namespace tl::ui {

namespace {

// The next button on the current line where it fits, else at the start of the next one: the
// toolbar wraps in a narrow panel or at a large scale instead of running off its right edge.
void same_line_if_fits(const char* label, float spacing = -1.0f) {
  const float width = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SameLine(0, spacing);
  if (width > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}

// Presenter mode: the timed run's table's share of the plot's row.
constexpr float kPresenterTableShare = 0.27f;

// The suffix that says the headline has a reason under the mouse.
constexpr const char* kWhySuffix = " (?)";

// Where the lesson has no note of its own: every "kernel" row is the emulated kernel timed on
// the CPU.
constexpr lessons::EmulatorNote kGenericEmulatorNote{
    "", "Emulator: CPU times",
    "No GPU: the 'kernel' and 'end to end' series time the emulated kernels on this CPU, not what "
    "a GPU would do."};

}  // namespace

float emulator_note_width(const lessons::EmulatorNote& note) {
  return ImGui::CalcTextSize(note.headline.data(), note.headline.data() + note.headline.size()).x +
         ImGui::CalcTextSize(kWhySuffix).x;
}

void draw_emulator_note(const lessons::EmulatorNote& note) {
  ImGui::TextColored(palette().warning, "%.*s", static_cast<int>(note.headline.size()),
                     note.headline.data());
  const bool hovered = ImGui::IsItemHovered();
  ImGui::SameLine(0, 0);
  ImGui::TextColored(palette().muted, "%s", kWhySuffix);
  if (hovered || ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(note.why.data(), note.why.data() + note.why.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

namespace {

void draw_export_buttons(AppController& controller, const TimingPlot& timing, ImVec2 plot_min,
                         ImVec2 plot_max) {
  same_line_if_fits("Clear");
  if (ImGui::Button("Clear")) controller.clear_plot();
  if (ImGui::IsItemHovered()) wrapped_tooltip("Removes every sweep from the plot");
  // The three exports behind one button: one toolbar row less at large scales.
  same_line_if_fits("Export...");
  if (ImGui::Button("Export...")) ImGui::OpenPopup("export");
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("Save the sweep as CSV or JSON, or the plot as PNG, in the current folder");
  }
  if (ImGui::BeginPopup("export")) {
    if (ImGui::MenuItem("CSV: threadlab-sweep.csv")) {
      const Status saved = plot::export_csv("threadlab-sweep.csv", timing.series);
      controller.post(saved ? Severity::kInfo : Severity::kError,
                      saved ? "Saved threadlab-sweep.csv" : saved.message());
    }
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "Every point of the current sweep (median, min, max, bytes, flops) as "
          "threadlab-sweep.csv in the current folder");
    }
    if (ImGui::MenuItem("JSON: threadlab-sweep.json")) {
      const Status saved = plot::export_json("threadlab-sweep.json", timing.series, timing.markers);
      controller.post(saved ? Severity::kInfo : Severity::kError,
                      saved ? "Saved threadlab-sweep.json" : saved.message());
    }
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip("The sweep and its crossover marker as threadlab-sweep.json");
    }
    if (ImGui::MenuItem("PNG: threadlab-plot.png", nullptr, false, plot_max.x > plot_min.x)) {
      controller.request_capture({"threadlab-plot.png", plot_min.x, plot_min.y,
                                  plot_max.x - plot_min.x, plot_max.y - plot_min.y});
    }
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      wrapped_tooltip("The plot as drawn, at screen resolution, as threadlab-plot.png");
    }
    ImGui::EndPopup();
  }
}

}  // namespace

void draw_timing_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const TimingPlot& timing = state.timing;
  // The PNG export button sits above the plot but must know where the plot is drawn: it uses the
  // previous frame's rectangle, where the plot stays unless the window changes size.
  static ImVec2 plot_min{0, 0};
  static ImVec2 plot_max{0, 0};
  // No title: the tab above says "CPU vs GPU".
  (void)fonts;
  if (timing.sweeping) {
    if (ImGui::Button("Cancel")) controller.cancel_sweep();
    if (ImGui::IsItemHovered()) wrapped_tooltip("Stops the sweep; the points so far stay");
    ImGui::SameLine();
    const float fraction =
        timing.progress.total == 0
            ? 0.0f
            : static_cast<float>(timing.progress.done) / static_cast<float>(timing.progress.total);
    // The point running now, and how far its emulated grid got: a large size can take minutes.
    const std::string overlay =
        timing.progress.current_label + "  (" + std::to_string(timing.progress.done) + "/" +
        std::to_string(timing.progress.total) + "), " + progress_caption(timing.progress);
    ImGui::ProgressBar(fraction, {ImGui::GetContentRegionAvail().x, 0}, overlay.c_str());
  } else {
    ImGui::BeginDisabled(!controller.can_launch());
    if (ImGui::Button("Sweep sizes")) controller.start_sweep(SweepKind::kSize);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      wrapped_tooltip(
          "Times the lesson over growing sizes with the current settings; earlier sweeps stay, "
          "faded");
    }
    same_line_if_fits("Sweep block sizes");
    if (ImGui::Button("Sweep block sizes")) controller.start_sweep(SweepKind::kBlock);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      wrapped_tooltip(
          "Times the kernels at the current size with 1 to 1024 threads per block: partial "
          "warps, then whole ones, up to the limit");
    }
    ImGui::EndDisabled();
    // Clearing and exporting are for the desk, not the projector: presenter mode hides them.
    if (!state.classroom.presenter) draw_export_buttons(controller, timing, plot_min, plot_max);
  }
  // On the emulator the note goes on the first line with room for it (the buttons', else the y
  // axis's), never a line of its own while another has room.
  // The lesson's own note on where the emulator differs, driven by the backend in use.
  const lessons::EmulatorNote* lesson_note = controller.lesson_emulator_note();
  const lessons::EmulatorNote& note = lesson_note ? *lesson_note : kGenericEmulatorNote;
  bool emulator_note_due = !is_gpu(state.backend);
  auto emulator_note_if_fits = [&] {
    if (!emulator_note_due) return;
    ImGui::SameLine(0, ImGui::GetFontSize());
    if (emulator_note_width(note) > ImGui::GetContentRegionAvail().x) {
      ImGui::NewLine();
      return;
    }
    draw_emulator_note(note);
    emulator_note_due = false;
  };
  emulator_note_if_fits();

  if (!has_plot(timing)) {
    if (emulator_note_due) draw_emulator_note(note);
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("Sweep to time this lesson over growing sizes on the CPU and on the %s.",
                       is_gpu(state.backend) ? "GPU" : "emulator");
    ImGui::PopStyleColor();
    return;
  }
  // Time, GB/s or GFLOP/s: the rates appear once a sweep has points that carry that work.
  if (timing.quantities.size() > 1) {
    ImGui::TextUnformatted("y:");
    for (plot::PlotQuantity quantity : timing.quantities) {
      ImGui::SameLine();
      const std::string label(plot::quantity_label(quantity));
      if (ImGui::RadioButton(label.c_str(), timing.shown_quantity == quantity)) {
        controller.set_plot_quantity(quantity);
      }
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("What the y axis shows: time per run, or the rate it amounts to");
      }
    }
    if (timing.shown_quantity == plot::PlotQuantity::kFlopRate) {
      constexpr const char* kHigherIsBetter =
          "higher is better; cuBLAS, where measured, is the ceiling";
      ImGui::SameLine(0, ImGui::GetFontSize());
      if (ImGui::CalcTextSize(kHigherIsBetter).x > ImGui::GetContentRegionAvail().x) {
        ImGui::NewLine();
      }
      ImGui::TextColored(palette().muted, "%s", kHigherIsBetter);
    }
  }
  bool log_y = timing.log_y;
  if (timing.quantities.size() <= 1) ImGui::TextUnformatted("y:");
  ImGui::SameLine(0, ImGui::GetFontSize());
  if (ImGui::Checkbox("log scale", &log_y)) controller.set_plot_log_y(log_y);
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "Log: decades of sizes and times at once. Linear: small differences at "
        "their true proportion");
  }
  emulator_note_if_fits();
  if (emulator_note_due) draw_emulator_note(note);
  // A line above its ceiling, and why it can be (the caches): a short note, the whole on hover.
  for (const std::string& ceiling_note : timing.ceiling_notes) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("%s", ceiling_note.c_str());
    ImGui::PopStyleColor();
  }
  static PlotState plot_state;
  PlotOptions options;
  options.x_title = timing.x_title;
  options.y_title = std::string(plot::quantity_axis_title(timing.shown_quantity));
  // The legend names the emulator's series by what they measure: the backend is said once, here.
  if (!is_gpu(state.backend)) options.y_title += "; device series: the CPU emulator";
  options.y_axis = plot::quantity_axis(timing.shown_quantity);
  if (!timing.log_y) {
    options.y_axis.scale = plot::AxisScale::kLinear;
    options.y_axis.include_zero = true;  // bars of time or rate read from zero
  }
  options.guides = timing.guides;
  // In presenter mode the timed run's table stands beside the plot (ui_root.cpp leaves it out of
  // the launch panel then): at a projector's scale the launch panel has no room for its rows.
  if (state.classroom.presenter) {
    const ImVec2 room = ImGui::GetContentRegionAvail();
    ImGui::BeginChild("launch_report", {std::floor(room.x * kPresenterTableShare), room.y}, false);
    draw_launch_report(controller);
    ImGui::EndChild();
    ImGui::SameLine();
  }
  // The plot in a child of its own ("plot"): the layout tests find its rectangle there.
  ImGui::BeginChild("plot", ImGui::GetContentRegionAvail(), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  PlotWidget("##timing", plot_state, timing.shown, timing.markers, options, {-1, -1});
  plot_min = ImGui::GetItemRectMin();
  plot_max = ImGui::GetItemRectMax();
  ImGui::EndChild();
}

}  // namespace tl::ui
