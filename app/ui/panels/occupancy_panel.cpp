// Occupancy of the current kernel: what the compiler gave it, how many of its blocks each SM
// resource allows, which one runs out first, and a bar chart of occupancy over block sizes with
// the current one marked. The numbers come from the core's occupancy model (checked against
// CUDA's occupancy API on the GPU); this draws them.

#include <algorithm>
#include <limits>
#include <string>

#include "core/format.hpp"
#include "core/reference_gpus.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

constexpr auto kUnlimited = std::numeric_limits<std::uint32_t>::max();

std::string blocks_text(std::uint32_t blocks) {
  return blocks == kUnlimited ? "no limit" : std::to_string(blocks);
}

void limit_row(const char* resource, const std::string& need, std::uint32_t blocks, bool limiting) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  if (limiting) {
    ImGui::TextColored(palette().warning, "%s", resource);
  } else {
    ImGui::TextUnformatted(resource);
  }
  ImGui::TableNextColumn();
  ImGui::TextColored(palette().muted, "%s", need.c_str());
  ImGui::TableNextColumn();
  if (limiting) {
    ImGui::TextColored(palette().warning, "%s  ← the limit", blocks_text(blocks).c_str());
  } else {
    ImGui::TextUnformatted(blocks_text(blocks).c_str());
  }
}

void draw_chart(const OccupancyView& view, std::uint32_t current_threads) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label = ImGui::GetTextLineHeightWithSpacing();
  if (avail.x < 100 || avail.y < 3 * label || view.by_block_size.empty()) return;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float axis_w = ImGui::CalcTextSize("100%").x + 6;
  const ImVec2 plot_min{origin.x + axis_w, origin.y + 2};
  const ImVec2 plot_max{origin.x + avail.x - 4, origin.y + avail.y - label};
  const float height = plot_max.y - plot_min.y;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(palette().muted);
  for (int percent : {0, 50, 100}) {
    const float y = plot_max.y - height * static_cast<float>(percent) / 100.0f;
    draw->AddLine({plot_min.x, y}, {plot_max.x, y}, grid);
    const std::string tick = std::to_string(percent) + "%";
    draw->AddText({origin.x, y - ImGui::GetTextLineHeight() * 0.5f}, text, tick.c_str());
  }
  const auto count = static_cast<float>(view.by_block_size.size());
  const float slot = (plot_max.x - plot_min.x) / count;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (std::size_t i = 0; i < view.by_block_size.size(); ++i) {
    const Occupancy& o = view.by_block_size[i];
    const float x0 = plot_min.x + slot * static_cast<float>(i) + 1;
    const float x1 = x0 + std::max(1.0f, slot - 2);
    const float top = plot_max.y - height * static_cast<float>(o.fraction());
    const bool current = o.block_threads == current_threads;
    const ImVec4 colour = current                             ? palette().link
                          : o.limit == OccupancyLimit::kWarps ? ImVec4{0.45f, 0.85f, 0.55f, 0.55f}
                                                              : ImVec4{1.00f, 0.78f, 0.30f, 0.55f};
    draw->AddRectFilled({x0, top}, {x1, plot_max.y}, ImGui::GetColorU32(colour));
    const bool hovered = ImGui::IsWindowHovered() && mouse.x >= x0 && mouse.x < x1 &&
                         mouse.y >= plot_min.y && mouse.y <= plot_max.y;
    if (hovered) {
      wrapped_tooltip("%u threads per block: %u blocks, %u of %u warps (%.0f%%), limited by %s",
                      o.block_threads, o.active_blocks, o.active_warps, o.max_warps,
                      o.fraction() * 100.0, std::string(to_string(o.limit)).c_str());
    }
    // Label every 256 threads, the sizes people try.
    if (o.block_threads % 256 == 0 || i == 0) {
      const std::string tick = std::to_string(o.block_threads);
      draw->AddText({x0, plot_max.y + 2}, text, tick.c_str());
    }
  }
  ImGui::Dummy(avail);
}

// The next widget, `width` wide, on this line where it fits, else on the next: the model's
// controls wrap in a narrow panel instead of running off its edge.
void same_line_if_room(float width) {
  ImGui::SameLine(0, ImGui::GetFontSize());
  if (width > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}

// On the emulator: which GPU the figures model and what the kernel is assumed to use, each
// changed through the controller (which recomputes the figures).
void draw_model_controls(AppController& controller) {
  OccupancyModelChoice choice = controller.state().controls.occupancy_model;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(9 * em);
  if (ImGui::BeginCombo("reference GPU", choice.gpu.c_str())) {
    for (const ReferenceGpu& gpu : reference_gpus()) {
      const bool selected = gpu.name == choice.gpu;
      if (ImGui::Selectable(std::string(gpu.name).c_str(), selected)) {
        choice.gpu = std::string(gpu.name);
        controller.set_occupancy_model(choice);
      }
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip(
            "Compute capability %d.%d: %u warps and %u blocks per SM, %s registers "
            "and %s of shared memory per SM",
            gpu.compute_major, gpu.compute_minor, gpu.max_warps_per_multiprocessor,
            gpu.max_blocks_per_multiprocessor,
            format_count(gpu.registers_per_multiprocessor).c_str(),
            format_bytes(static_cast<double>(gpu.shared_memory_per_multiprocessor)).c_str());
      }
    }
    ImGui::EndCombo();
  }
  same_line_if_room(7 * em + ImGui::CalcTextSize("registers / thread").x + em);
  int registers = static_cast<int>(choice.registers_per_thread);
  ImGui::SetNextItemWidth(7 * em);
  if (ImGui::InputInt("registers / thread", &registers, 8, 32,
                      ImGuiInputTextFlags_EnterReturnsTrue)) {
    choice.registers_per_thread =
        static_cast<std::uint32_t>(std::clamp(registers, 1, int{kMaxRegistersPerThread}));
    controller.set_occupancy_model(choice);
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "Assumed: nvcc decides each kernel's registers for the GPU; a GPU build run "
        "on a GPU reads them (up to %u)",
        kMaxRegistersPerThread);
  }
  same_line_if_room(7 * em + ImGui::CalcTextSize("KiB shared / block").x + em);
  int shared_kib = static_cast<int>(choice.shared_bytes_per_block / 1024);
  ImGui::SetNextItemWidth(7 * em);
  if (ImGui::InputInt("KiB shared / block", &shared_kib, 4, 16,
                      ImGuiInputTextFlags_EnterReturnsTrue)) {
    choice.shared_bytes_per_block =
        static_cast<std::uint64_t>(std::clamp(shared_kib, 0, 1024)) * 1024;
    controller.set_occupancy_model(choice);
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "Assumed: the shared memory one block of the kernel declares, static and "
        "dynamic together");
  }
}

}  // namespace

void draw_occupancy_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const OccupancyView& view = state.controls.occupancy;
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("How full each SM can be");
  ImGui::PopFont();
  if (!view.unavailable.empty() || !view.resources) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(palette().muted, "%s", view.kernel.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("%s", view.unavailable.c_str());
    ImGui::PopStyleColor();
    return;
  }
  const bool modelled = !view.model_label.empty();
  if (modelled) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(palette().warning, "%s", view.model_label.c_str());
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "No GPU here, and the emulator has no SMs: these figures apply the chosen "
          "GPU's published limits to the current launch");
    }
    draw_model_controls(controller);
  }
  const KernelResources& kernel = *view.resources;
  const Occupancy& o = view.current;
  if (modelled) {
    // Neither figure comes from the compiler here: say so before them.
    ImGui::TextWrapped(
        "%s: assumed %u registers per thread and %s of shared memory per block (at most %u "
        "threads per block)",
        view.kernel.c_str(), kernel.registers_per_thread,
        format_bytes(static_cast<double>(kernel.static_shared_bytes)).c_str(),
        kernel.max_threads_per_block);
  } else if (kernel.dynamic_shared_bytes == 0) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::Text(
        "%s: %u registers per thread, %s static shared memory, at most %u threads per block",
        view.kernel.c_str(), kernel.registers_per_thread,
        format_bytes(static_cast<double>(kernel.static_shared_bytes)).c_str(),
        kernel.max_threads_per_block);
  } else {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::Text(
        "%s: %u registers per thread, %s static + %s dynamic shared memory, at most %u threads "
        "per block",
        view.kernel.c_str(), kernel.registers_per_thread,
        format_bytes(static_cast<double>(kernel.static_shared_bytes)).c_str(),
        format_bytes(static_cast<double>(kernel.dynamic_shared_bytes)).c_str(),
        kernel.max_threads_per_block);
  }

  if (o.active_blocks == 0) {
    ImGui::TextColored(palette().error, "%u threads per block: this kernel cannot launch so (%s).",
                       o.block_threads, std::string(to_string(o.limit)).c_str());
  } else {
    ImGui::Text("%u threads per block: %u blocks per SM, %u of %u warp slots = %.0f%% occupancy",
                o.block_threads, o.active_blocks, o.active_warps, o.max_warps,
                o.fraction() * 100.0);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
    ImGui::TextWrapped("The limit here: %s (%s).", std::string(to_string(o.limit)).c_str(),
                       view.limit_reason.c_str());
    ImGui::PopStyleColor();
  }
  const DeviceInfo& device = view.device;
  if (ImGui::BeginTable("limits", 3, ImGuiTableFlags_SizingFixedFit)) {
    limit_row("warp slots",
              std::to_string(o.warps_per_block) + " warps of " + std::to_string(o.max_warps) +
                  " per SM (" + std::to_string(device.max_threads_per_multiprocessor) + " threads)",
              o.blocks_by_warps, o.active_blocks > 0 && o.limit == OccupancyLimit::kWarps);
    limit_row("block slots",
              "at most " + std::to_string(device.max_blocks_per_multiprocessor) + " blocks per SM",
              o.blocks_by_block_slots, o.active_blocks > 0 && o.limit == OccupancyLimit::kBlocks);
    limit_row("registers",
              format_count(o.registers_per_block) + " of " +
                  format_count(device.registers_per_multiprocessor) + " per SM",
              o.blocks_by_registers, o.active_blocks > 0 && o.limit == OccupancyLimit::kRegisters);
    limit_row("shared memory",
              format_bytes(static_cast<double>(o.shared_bytes_per_block)) + " of " +
                  format_bytes(static_cast<double>(device.shared_memory_per_multiprocessor)),
              o.blocks_by_shared_memory,
              o.active_blocks > 0 && o.limit == OccupancyLimit::kSharedMemory);
    ImGui::EndTable();
  }
  ImGui::TextColored(palette().muted,
                     "By block size (blue: yours; green: full up to the warp slots; amber: another "
                     "limit). More warps hide more memory latency; it is not speed in itself.");
  draw_chart(view, o.block_threads);
}

}  // namespace tl::ui
