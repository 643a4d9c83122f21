// Launch controls: N, threads per block, blocks, the article's <<<1, N>>>, and Launch. Invalid
// configurations are explained next to the fields and can still be launched.

#include <string>

#include "core/format.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

void limit_hint(const char* text) {
  ImGui::SameLine();
  ImGui::TextColored(kMutedColor, "%s", text);
}

}  // namespace

void draw_launch_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const LaunchControls& c = state.controls;
  const DeviceLimits& limits = state.device.limits;
  const float field_width = ImGui::GetFontSize() * 6.5f;

  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Launch");
  ImGui::PopFont();

  std::uint64_t n = c.n;
  ImGui::SetNextItemWidth(field_width);
  if (ImGui::InputScalar("N elements", ImGuiDataType_U64, &n, nullptr, nullptr, "%llu",
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
    controller.set_n(n);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("How many floats to add. Press Enter to apply.");
  ImGui::SameLine();
  if (ImGui::SmallButton("/2") && c.n > 1) controller.set_n(c.n / 2);
  ImGui::SameLine();
  if (ImGui::SmallButton("x2")) controller.set_n(c.n * 2);

  int threads = static_cast<int>(std::min<std::uint32_t>(c.block.x, 1u << 30));
  ImGui::SetNextItemWidth(field_width);
  if (ImGui::InputInt("threads / block", &threads, 32, 256, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (threads < 1) {
      controller.post(Severity::kWarning, "Threads per block must be at least 1.");
    } else {
      controller.set_block({static_cast<std::uint32_t>(threads), 1, 1});
    }
  }
  const std::string block_limit = "≤ " + std::to_string(limits.max_threads_per_block);
  limit_hint(block_limit.c_str());

  bool automatic = c.auto_grid;
  if (ImGui::Checkbox("enough blocks to cover N", &automatic)) controller.set_auto_grid(automatic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("blocks = ceil(N / threads per block)");
  int blocks = static_cast<int>(std::min<std::uint32_t>(c.grid.x, 0x7FFFFFFF));
  ImGui::BeginDisabled(c.auto_grid);
  ImGui::SetNextItemWidth(field_width);
  if (ImGui::InputInt("blocks", &blocks, 1, 16, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (blocks < 0) {
      controller.post(Severity::kWarning, "The number of blocks cannot be negative.");
    } else {
      controller.set_grid({static_cast<std::uint32_t>(blocks), 1, 1});
    }
  }
  ImGui::EndDisabled();
  const std::string grid_limit = limits.max_grid_dim.x == 0x7FFFFFFFu
                                     ? "≤ 2^31 - 1"
                                     : "≤ " + format_count(limits.max_grid_dim.x);
  limit_hint(grid_limit.c_str());

  if (ImGui::Button("<<<1, N>>>")) controller.use_single_block();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The article's first try: one block with a thread per element");

  ImGui::Separator();
  ImGui::PushFont(fonts.mono);
  ImGui::TextWrapped("vector_add%s(a, b, c, %llu)", c.config().to_string().c_str(),
                     static_cast<unsigned long long>(c.n));
  ImGui::PopFont();
  const std::uint64_t launched = c.config().total_threads();
  ImGui::TextColored(kMutedColor, "%s threads for %s elements", format_count(launched).c_str(),
                     format_count(c.n).c_str());
  if (launched > c.n) {
    ImGui::TextColored(kMutedColor, "%s idle threads (i >= N)",
                       format_count(launched - c.n).c_str());
  } else if (launched < c.n) {
    ImGui::TextColored(kWarningColor, "%s elements get no thread",
                       format_count(c.n - launched).c_str());
  }
  for (const LaunchProblem& problem : state.launch_problems) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", problem.message.c_str());
    ImGui::PopStyleColor();
  }

  const bool busy = !controller.can_launch();
  ImGui::BeginDisabled(busy);
  const char* label = state.launch_problems.empty() ? "Launch" : "Launch anyway";
  if (ImGui::Button(label, {ImGui::GetContentRegionAvail().x, 0})) controller.launch();
  ImGui::EndDisabled();
  if (busy && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Measurements are running in the background");
  }
  if (!state.launch_problems.empty() && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("CUDA will refuse this configuration: launch it to see CUDA's own error");
  }

  // The last timed run.
  const TimedRun& timed = state.timed;
  ImGui::Spacing();
  if (timed.pending) {
    ImGui::TextColored(kMutedColor, "timing %s ...", timed.config.to_string().c_str());
  } else if (!timed.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", timed.error.c_str());
    ImGui::PopStyleColor();
  } else if (timed.report) {
    const compute::VectorAddReport& r = *timed.report;
    const bool gpu = r.on_gpu;
    if (ImGui::BeginTable("timed", 2, ImGuiTableFlags_SizingStretchProp)) {
      auto row = [](const char* what, const TimingStats& t) {
        if (t.empty()) return;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(what);
        ImGui::TableNextColumn();
        ImGui::Text("%s", format_milliseconds(t.median_ms).c_str());
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("median of %d runs; min %s, max %s", t.repeats,
                            format_milliseconds(t.min_ms).c_str(),
                            format_milliseconds(t.max_ms).c_str());
        }
      };
      row(gpu ? "GPU kernel" : "kernel (emulated on CPU)", r.kernel);
      row("copy A, B to device", r.host_to_device);
      row("copy C to host", r.device_to_host);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(gpu ? "GPU end to end" : "end to end (emulated)");
      ImGui::TableNextColumn();
      ImGui::Text("%s", format_milliseconds(r.end_to_end_ms()).c_str());
      row("CPU, 1 thread", r.cpu_single);
      row("CPU, all threads", r.cpu_multi);
      ImGui::EndTable();
    }
    if (r.check) {
      ImGui::PushStyleColor(ImGuiCol_Text, r.check->passed ? kOkColor : kErrorColor);
      ImGui::TextWrapped("%s", r.check->describe().c_str());
      ImGui::PopStyleColor();
    }
  }
}

}  // namespace tl::ui
