// The device table: what the kernels run on and its limits.

#include "core/format.hpp"
#include "core/plot/tick_format.hpp"
#include "panels.hpp"

namespace tl::ui {

void draw_device_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const DeviceInfo& d = state.device;
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Device");
  ImGui::PopFont();
  if (!ImGui::BeginTable("device", 2)) return;
  // The keys keep their whole width ("shared mem / block" was cut to "shared mem / bloc" at
  // 1280×720); the values take the rest and wrap there.
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  auto row = [](const char* key, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(palette().muted, "%s", key);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", value.c_str());
  };
  row("name", d.name);
  if (is_gpu(state.backend)) {
    row("compute capability",
        std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor));
    row("SMs", std::to_string(d.multiprocessors));
  } else {
    row("worker threads", std::to_string(d.multiprocessors));
  }
  row("warp size", std::to_string(d.limits.warp_size));
  row("threads / block", "≤ " + std::to_string(d.limits.max_threads_per_block));
  row("block dims", "≤ " + std::to_string(d.limits.max_block_dim.x) + " × " +
                        std::to_string(d.limits.max_block_dim.y) + " × " +
                        std::to_string(d.limits.max_block_dim.z));
  row("grid dims", "≤ " + format_count(d.limits.max_grid_dim.x) + " × " +
                       std::to_string(d.limits.max_grid_dim.y) + " × " +
                       std::to_string(d.limits.max_grid_dim.z));
  row("shared mem / block", format_bytes(static_cast<double>(d.shared_memory_per_block)));
  // What one SM holds at once and the cache all SMs share: the figures the lessons' text takes
  // from the running device ({{device.max_threads_per_sm}}, {{device.l2_cache_mb}} ...).
  if (is_gpu(state.backend)) {
    if (d.max_threads_per_multiprocessor > 0) {
      row("threads / SM", "≤ " + std::to_string(d.max_threads_per_multiprocessor));
    }
    if (d.max_blocks_per_multiprocessor > 0) {
      row("blocks / SM", "≤ " + std::to_string(d.max_blocks_per_multiprocessor));
    }
    if (d.registers_per_multiprocessor > 0) {
      row("registers / SM", format_count(d.registers_per_multiprocessor));
    }
    if (d.shared_memory_per_multiprocessor > 0) {
      row("shared mem / SM", format_bytes(static_cast<double>(d.shared_memory_per_multiprocessor)));
    }
    row("L2 cache", d.l2_cache_bytes > 0 ? format_bytes(static_cast<double>(d.l2_cache_bytes))
                                         : std::string("unknown"));
  }
  row(is_gpu(state.backend) ? "global memory" : "host memory",
      format_bytes(static_cast<double>(d.global_memory_total)));
  if (d.theoretical_bandwidth_gbps() > 0) {
    row("peak bandwidth",
        std::to_string(static_cast<int>(d.theoretical_bandwidth_gbps())) + " GB/s");
  }
  // The ceilings every GPU result is compared with, measured here (see the timing table).
  if (state.ceilings) {
    const DeviceCeilings& c = *state.ceilings;
    row(is_gpu(state.backend) ? "copy, measured" : "memcpy, measured",
        plot::format_value(c.copy_bytes_per_second, plot::TickFormat::kByteRate, 3) + " (" +
            format_bytes(static_cast<double>(c.copy_buffer_bytes)) + ")");
    if (c.sgemm_flops_per_second > 0) {
      row("cuBLAS SGEMM",
          plot::format_value(c.sgemm_flops_per_second, plot::TickFormat::kFlopRate, 3) + " (" +
              std::to_string(c.sgemm_size) + "³)");
    }
  }
  row("OpenGL", state.gl_renderer);
  ImGui::EndTable();
}

}  // namespace tl::ui
