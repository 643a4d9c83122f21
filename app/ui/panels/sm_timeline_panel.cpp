// Which SM ran each block, and when: one lane per SM, blocks as bars over time, coloured like the
// mapping view's "block" colours so a block can be followed from one view to the other. The waves
// and the tail come from the core's timeline model.

#include <algorithm>
#include <string>

#include "core/color_scheme.hpp"
#include "core/format.hpp"
#include "draw_colors.hpp"
#include "panels.hpp"

namespace tl::ui {

void draw_sm_timeline_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  const lessons::BlockTimeline& timeline = state.trace.timeline;
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Blocks on SMs over time");
  ImGui::PopFont();
  if (state.trace.blocks.empty()) {
    ImGui::TextColored(palette().muted,
                       "This lesson does not record which SM ran each block; the lessons that "
                       "launch waves of blocks show them here.");
    return;
  }
  if (!timeline.measured) {
    ImGui::TextColored(
        palette().warning,
        "The emulator has no SMs and no GPU clock: launch on a GPU to see which SM ran each "
        "block, and the waves.");
    return;
  }
  ImGui::Text("%s blocks on %zu SMs; one wave holds %u blocks; %u wave(s); last wave %.0f%% full",
              format_count(timeline.blocks).c_str(), timeline.sms.size(), timeline.capacity,
              timeline.waves, timeline.tail_fill * 100.0);
  ImGui::SameLine(0, ImGui::GetFontSize());
  ImGui::TextColored(palette().muted, "span %s",
                     format_milliseconds(static_cast<double>(timeline.span_ns) / 1e6).c_str());

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size = ImGui::GetContentRegionAvail();
  if (size.x < 50 || size.y < 20 || timeline.sms.empty()) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float label_width = ImGui::CalcTextSize("SM 000").x + 6.0f;
  const float plot_x = origin.x + label_width;
  const float plot_width = size.x - label_width - 4.0f;
  const float lane_height = size.y / static_cast<float>(timeline.sms.size());
  const double span = std::max<double>(1.0, static_cast<double>(timeline.span_ns));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const lessons::TimelineBlock* hovered = nullptr;
  std::int32_t hovered_sm = -1;

  for (std::size_t lane = 0; lane < timeline.sms.size(); ++lane) {
    const lessons::SmTimeline& sm = timeline.sms[lane];
    const float y0 = origin.y + lane_height * static_cast<float>(lane);
    if (lane % 2 == 1) {
      draw->AddRectFilled({plot_x, y0}, {plot_x + plot_width, y0 + lane_height},
                          IM_COL32(255, 255, 255, 10));
    }
    // Label every lane when they are tall enough to read, else every few.
    const std::size_t label_every =
        lane_height >= ImGui::GetFontSize()
            ? 1
            : static_cast<std::size_t>(ImGui::GetFontSize() / std::max(1.0f, lane_height)) + 1;
    if (lane % label_every == 0) {
      const std::string label = "SM " + std::to_string(sm.sm);
      draw->AddText({origin.x, y0}, ImGui::GetColorU32(palette().muted), label.c_str());
    }
    const float slot_height = lane_height / static_cast<float>(std::max(1u, sm.slots));
    for (const lessons::TimelineBlock& block : sm.blocks) {
      const float x0 =
          plot_x + static_cast<float>(static_cast<double>(block.start_ns) / span) * plot_width;
      const float x1 = std::max(
          x0 + 1.0f,
          plot_x + static_cast<float>(static_cast<double>(block.end_ns) / span) * plot_width);
      const float top = y0 + slot_height * static_cast<float>(block.slot);
      const float bottom =
          std::max(top + 1.0f, top + slot_height - (slot_height > 3 ? 1.0f : 0.0f));
      const Rgb c = categorical_color(static_cast<std::uint32_t>(block.block));
      draw->AddRectFilled({x0, top}, {x1, bottom}, to_imgui(c));
      if (mouse.x >= x0 && mouse.x <= x1 && mouse.y >= top && mouse.y <= bottom) {
        hovered = &block;
        hovered_sm = sm.sm;
      }
    }
  }
  ImGui::Dummy(size);
  if (hovered != nullptr && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    const Dim3 index = state.trace.config.grid.unlinear(hovered->block);
    ImGui::Text("block %llu = blockIdx (%u, %u, %u)",
                static_cast<unsigned long long>(hovered->block), index.x, index.y, index.z);
    ImGui::Text("SM %d, wave %u", hovered_sm, hovered->round + 1);
    ImGui::Text("from %s to %s",
                format_milliseconds(static_cast<double>(hovered->start_ns) / 1e6).c_str(),
                format_milliseconds(static_cast<double>(hovered->end_ns) / 1e6).c_str());
    ImGui::EndTooltip();
  }
}

}  // namespace tl::ui
