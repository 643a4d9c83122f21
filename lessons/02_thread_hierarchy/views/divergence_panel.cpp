// Lesson 2's warp-divergence tab. For the block the controls give, each of its first warps is drawn
// as it runs the divergence kernels' branch: one strip of 32 lanes per pass through the branch's
// body, the lanes whose threads take that side lit in its colour, the others idle (dark), and the
// lanes with no thread (a partial last warp) crossed out. The arithmetic is the lesson model's
// (warp_at_branch, block_at_branch); this draws it.

#include "divergence_panel.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lesson_view_context.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"
#include "theme.hpp"

namespace tl::ui::thread_hierarchy_views {
namespace {

constexpr std::uint32_t kWarpSize = 32;
constexpr std::uint32_t kWarpsDrawn = 4;
// The two sides of the branch, and a lane waiting while the other side runs.
constexpr ImU32 kSideColour[2] = {IM_COL32(0x4E, 0xB3, 0xD3, 255), IM_COL32(0xE0, 0x8A, 0x3C, 255)};
constexpr ImU32 kIdleLane = IM_COL32(0x38, 0x3A, 0x44, 255);
constexpr ImU32 kNoThread = IM_COL32(0x20, 0x21, 0x26, 255);

lessons::BranchRule chosen_rule(const AppState& state) {
  const auto it = state.controls.values.find("branch");
  if (it == state.controls.values.end()) return lessons::BranchRule::kNone;
  return lessons::parse_branch_rule(it->second).value_or(lessons::BranchRule::kNone);
}

const char* condition(lessons::BranchRule rule) {
  return rule == lessons::BranchRule::kByWarp ? "if (threadIdx.x / 32 % 2 == 0)"
                                              : "if (threadIdx.x % 2 == 0)";
}

// One pass of one warp: 32 lanes, lit where the lane's thread takes `side`.
void draw_pass(ImDrawList* draw, ImVec2 at, float lane, lessons::BranchRule rule,
               std::uint32_t block_threads, std::uint32_t warp, unsigned side) {
  for (std::uint32_t l = 0; l < kWarpSize; ++l) {
    const std::uint32_t thread = warp * kWarpSize + l;
    const ImVec2 a{at.x + lane * static_cast<float>(l), at.y};
    const ImVec2 b{a.x + lane - 2, a.y + lane - 2};
    if (thread >= block_threads) {
      draw->AddRectFilled(a, b, kNoThread);
      draw->AddLine(a, b, kIdleLane);
    } else if (lessons::branch_side(rule, thread) == side) {
      draw->AddRectFilled(a, b, kSideColour[side]);
    } else {
      draw->AddRectFilled(a, b, kIdleLane);
    }
  }
}

std::string percent(double fraction) {
  return std::to_string(static_cast<int>(std::lround(fraction * 100))) + " %";
}

}  // namespace

void draw_divergence_panel(LessonViewContext& context, const Fonts& fonts) {
  const AppState& state = context.state();
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Warp divergence");
  ImGui::PopFont();
  const lessons::BranchRule rule = chosen_rule(state);
  const auto block_threads = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(state.controls.resolved.block.volume(), 1u << 20));
  if (rule == lessons::BranchRule::kNone || block_threads == 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped(
        "Choose a branch in the launch panel: by-thread branches on threadIdx.x %% 2, so even and "
        "odd threads share every warp; by-warp on threadIdx.x / 32 %% 2, the same split of the "
        "work "
        "with whole warps going one way. This tab then draws each warp's lanes at the branch.");
    ImGui::PopStyleColor();
    return;
  }
  const lessons::BlockAtBranch block = lessons::block_at_branch(rule, block_threads, kWarpSize);
  ImGui::TextWrapped(
      "%s, blocks of %u threads: %u warps run the branch's body %u times, %s of their "
      "lanes idle meanwhile",
      condition(rule), block_threads, block.warps, block.warp_passes,
      percent(block.idle_fraction()).c_str());
  const lessons::BranchRule other = rule == lessons::BranchRule::kByThread
                                        ? lessons::BranchRule::kByWarp
                                        : lessons::BranchRule::kByThread;
  const lessons::BlockAtBranch alternative =
      lessons::block_at_branch(other, block_threads, kWarpSize);
  ImGui::TextColored(palette().muted, "%s would run it %u times, %s idle.", condition(other),
                     alternative.warp_passes, percent(alternative.idle_fraction()).c_str());

  // One row per pass: "warp w, even side" then its 32 lanes.
  const float label_w = ImGui::CalcTextSize("warp 00, odd side  ").x;
  const float avail = ImGui::GetContentRegionAvail().x - label_w;
  const float lane = std::clamp(avail / kWarpSize, 6.0f, 22.0f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::uint32_t warps = std::min(block.warps, kWarpsDrawn);
  for (std::uint32_t warp = 0; warp < warps; ++warp) {
    const lessons::WarpAtBranch at = lessons::warp_at_branch(rule, block_threads, warp, kWarpSize);
    for (unsigned side = 0; side < 2; ++side) {
      if (at.lanes_on_side[side] == 0) continue;  // no lane takes it: the warp skips this side
      const std::string label =
          "warp " + std::to_string(warp) + (side == 0 ? ", even side" : ", odd side");
      ImGui::TextColored(palette().muted, "%s", label.c_str());
      ImGui::SameLine(label_w);
      const ImVec2 at_cursor = ImGui::GetCursorScreenPos();
      draw_pass(draw, at_cursor, lane, rule, block_threads, warp, side);
      ImGui::Dummy({lane * kWarpSize, lane});
    }
  }
  if (block.warps > warps) {
    ImGui::TextColored(palette().muted, "... and %u more warps like these", block.warps - warps);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped(
      "Lit: the lanes that run this side (blue even, orange odd); dark: lanes waiting for the "
      "other side; crossed: lanes with no thread. The timing table times both kernels; only a GPU "
      "shows the cost, the emulator runs threads one by one.");
  ImGui::PopStyleColor();
}

}  // namespace tl::ui::thread_hierarchy_views
