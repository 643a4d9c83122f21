// Under the timed run's table: the hardware counters of the compared kernels (DRAM bytes, L2 hit
// rate, achieved occupancy), read through CUPTI after the timings on launches of their own, or
// why they cannot be read here.

#include <imgui.h>

#include <cstdio>
#include <string>

#include "compute/hardware_counters.hpp"
#include "core/format.hpp"
#include "core/kernel_counters.hpp"
#include "panels.hpp"

namespace tl::ui {

void draw_counters_section(AppController& controller) {
  const AppState& state = controller.state();
  if (compute::counting_lesson(controller.current_lesson()) == nullptr) return;
  ImGui::Spacing();
  bool enabled = state.counters.enabled;
  if (ImGui::Checkbox("Hardware counters", &enabled)) controller.set_read_counters(enabled);
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "After each timed launch, read what each compared kernel did in the memory system: "
        "bytes from and to DRAM, the L2 cache's hit rate, and the warps its SMs kept busy "
        "(CUPTI). %s.",
        std::string(kCountersAreNotTimings).c_str());
  }
  if (!state.counters.enabled) return;
  const HardwareCounterReading& counters = state.counters;
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  if (!is_gpu(state.backend)) {
    ImGui::TextWrapped("%s", std::string(kEmulatorHasNoCounters).c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (counters.pending) {
    ImGui::TextUnformatted("reading the counters after the timings ...");
    ImGui::PopStyleColor();
    return;
  }
  if (!counters.unavailable.empty()) {
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
    ImGui::TextWrapped("%s", counters.unavailable.c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (counters.kernels.empty()) {
    ImGui::TextWrapped("Launch to read them.");
    ImGui::PopStyleColor();
    return;
  }
  ImGui::TextWrapped("%s.", std::string(kCountersAreNotTimings).c_str());
  ImGui::PopStyleColor();
  const bool stale = !counters.launched.matches(state.controls);
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * (stale ? 0.45f : 1.0f));
  if (ImGui::BeginTable("counters", 4, ImGuiTableFlags_None)) {
    ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("DRAM", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("88.88x").x);
    ImGui::TableSetupColumn("L2 hit", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("100%").x);
    ImGui::TableSetupColumn("occupancy", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("100%").x);
    ImGui::TableNextRow();
    for (const char* title : {"", "DRAM", "L2 hit", "occ."}) {
      ImGui::TableNextColumn();
      ImGui::TextColored(palette().muted, "%s", title);
    }
    for (const CountedKernel& kernel : counters.kernels) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", kernel.name.c_str());
      if (ImGui::IsItemHovered()) wrapped_tooltip("%s", describe_counters(kernel).c_str());
      ImGui::TableNextColumn();
      if (const auto over = dram_traffic_over_ideal(kernel)) {
        ImGui::Text("%.2fx", *over);
      } else {
        ImGui::TextUnformatted(format_bytes(kernel.counters.dram_bytes()).c_str());
      }
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip(
            "DRAM bytes read and written over the least the work needs (each input read once, "
            "each output written once): %s read, %s written, %s needed",
            format_bytes(kernel.counters.dram_bytes_read).c_str(),
            format_bytes(kernel.counters.dram_bytes_written).c_str(),
            format_bytes(kernel.ideal_bytes).c_str());
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.0f%%", kernel.counters.l2_hit_rate * 100.0);
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("of the L2 cache's sector lookups; the L2 served %s",
                        format_bytes(kernel.counters.l2_bytes).c_str());
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.0f%%", kernel.counters.achieved_occupancy * 100.0);
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("achieved occupancy: warps active per SM over the most it can hold");
      }
    }
    ImGui::EndTable();
  }
  ImGui::PopStyleVar();
}

}  // namespace tl::ui
