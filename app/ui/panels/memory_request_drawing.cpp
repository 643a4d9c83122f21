// One warp-level request drawn: the 32 lanes in a row, each joined to the 32-byte sector (global
// memory) or the bank (shared memory) it touched, with the arrows that step through its line's
// requests. Shared by the lesson workspace's Memory tab (memory_panel.cpp) and the Kernel Lab's
// Memory panel (lab_panel.cpp), so the two pictures are one. It draws the view as it is; where each
// lane goes and how words stack in a bank was computed by core/memory/request_picture.hpp.

#include "memory_request_drawing.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/color_scheme.hpp"
#include "draw_colors.hpp"
#include "theme.hpp"

namespace tl::ui {
namespace {

void wrapped(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void tooltip(const std::string& text) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// The colour of a request's target (sector or bank) `index`, at the style's alpha (greyed while
// the table is of earlier settings).
ImU32 target_color(std::uint32_t index, float alpha = 1.0f) {
  return to_imgui(categorical_color(index), alpha * ImGui::GetStyle().Alpha);
}
ImU32 vec_color(const ImVec4& c, float alpha = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32({c.x, c.y, c.z, c.w * alpha * ImGui::GetStyle().Alpha});
}
// Text on the light categorical colours: dark, whatever the theme.
ImU32 ink() {
  return IM_COL32(20, 20, 24, static_cast<int>(255 * ImGui::GetStyle().Alpha));
}

}  // namespace

// One warp's request: lanes on top, their sectors or banks below, a line from each lane to its
// target in the target's colour.
RequestStep draw_memory_request(const MemoryRequestView& view) {
  RequestStep pressed = RequestStep::kNone;
  if (ImGui::ArrowButton("previous_request", ImGuiDir_Left) && view.index > 0) {
    pressed = RequestStep::kPrevious;
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("next_request", ImGuiDir_Right) && view.index + 1 < view.count) {
    pressed = RequestStep::kNext;
  }
  ImGui::SameLine();
  ImGui::Text("request %zu of %zu on this line:", view.index + 1, view.count);
  // The request's title beside the arrows where it fits on that line, under them where not.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float left = right - ImGui::GetItemRectMax().x - ImGui::GetStyle().ItemSpacing.x;
  if (left >= ImGui::CalcTextSize(view.title.c_str()).x) ImGui::SameLine();
  wrapped(palette().muted, view.title);
  if (!view.cut.empty()) wrapped(palette().muted, view.cut);
  draw_memory_request_picture(view);
  return pressed;
}

void draw_memory_request_picture(const MemoryRequestView& view) {
  const memory::RequestPicture& p = view.picture;
  const bool global = p.space == memory::MemorySpace::kGlobal;
  wrapped(p.actual <= p.ideal ? palette().ok : palette().warning, view.summary);

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // A little short of the region: the last sector stays clear of a scroll bar.
  const float width = std::max(ImGui::GetContentRegionAvail().x - 4.0f, 32.0f * 6.0f);
  const float cell = std::floor(std::min(width / 32.0f, font * 2.2f));
  const float box = cell - 2.0f;
  const float label_h = ImGui::GetTextLineHeight();
  const float lanes_y = origin.y + label_h;
  const float lane_h = std::max(box, font * 1.2f);
  const float targets_y = lanes_y + lane_h + std::max(font * 3.0f, 40.0f);
  const ImU32 border = vec_color(ImGui::GetStyle().Colors[ImGuiCol_Border]);
  const ImU32 text = vec_color(ImGui::GetStyle().Colors[ImGuiCol_Text]);
  const ImU32 muted = vec_color(palette().muted);
  const bool every_number = ImGui::CalcTextSize("31").x + 2.0f <= box;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  auto inside = [&](ImVec2 a, ImVec2 b) {
    return ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y &&
           mouse.y < b.y;
  };
  std::string hovered;

  // The lanes: every one of 32 drawn, the inactive ones hollow.
  draw->AddText({origin.x, origin.y}, muted, "lanes of the warp");
  std::vector<const memory::PictureLane*> by_lane(32, nullptr);
  std::vector<std::size_t> info_of(32, 0);
  for (std::size_t i = 0; i < p.lanes.size(); ++i) {
    if (p.lanes[i].lane < 32) {
      by_lane[p.lanes[i].lane] = &p.lanes[i];
      info_of[p.lanes[i].lane] = i;
    }
  }
  for (std::uint32_t l = 0; l < 32; ++l) {
    const ImVec2 a{origin.x + static_cast<float>(l) * cell + 1.0f, lanes_y};
    const ImVec2 b{a.x + box, lanes_y + lane_h};
    const memory::PictureLane* lane = by_lane[l];
    if (lane != nullptr) {
      draw->AddRectFilled(a, b, target_color(lane->target));
    }
    draw->AddRect(a, b, border);
    if (every_number || l % 8 == 0 || l == 31) {
      const std::string number = std::to_string(l);
      const ImVec2 size = ImGui::CalcTextSize(number.c_str());
      const bool fits = size.x + 2.0f <= box;
      draw->AddText({a.x + (box - size.x) * 0.5f, fits ? a.y + (lane_h - size.y) * 0.5f : b.y},
                    fits && lane != nullptr ? ink() : text, number.c_str());
    }
    if (lane != nullptr && inside(a, b)) {
      const MemoryLaneInfo& info = view.lanes[info_of[l]];
      hovered = "lane " + std::to_string(l) + ": thread (" + std::to_string(info.thread.x) + ", " +
                std::to_string(info.thread.y) + ", " + std::to_string(info.thread.z) +
                ") of block (" + std::to_string(info.block.x) + ", " +
                std::to_string(info.block.y) + ", " + std::to_string(info.block.z) + ")\n" +
                info.element + ", " + std::to_string(lane->bytes) + " bytes\n→ " +
                view.target_labels[lane->target];
    } else if (lane == nullptr && inside(a, b)) {
      hovered = "lane " + std::to_string(l) + ": not active in this request";
    }
  }

  // Where each target is drawn.
  std::vector<float> target_x(p.targets.size(), 0.0f);
  float target_w = box;
  float bottom = targets_y + lane_h;
  std::string caption;  // what the row of targets is, under it
  if (global) {
    // Sectors by address, a gap between 128-byte lines, so that "4 sectors of one line" and "32
    // sectors of 32 lines" read at a glance.
    std::size_t line_breaks = 0;
    for (std::size_t t = 1; t < p.targets.size(); ++t) {
      if (p.targets[t].line != p.targets[t - 1].line) ++line_breaks;
    }
    const float gap = cell * 0.5f;
    const float needed =
        static_cast<float>(p.targets.size()) * cell + static_cast<float>(line_breaks) * gap;
    const float scale = needed > width ? width / needed : 1.0f;
    float x = origin.x;
    // A request of few sectors is drawn under the middle of the lanes, not at their left.
    if (needed < width) x += (32.0f * cell - needed) * 0.5f;
    for (std::size_t t = 0; t < p.targets.size(); ++t) {
      if (t > 0 && p.targets[t].line != p.targets[t - 1].line) x += gap * scale;
      target_x[t] = x;
      x += cell * scale;
    }
    target_w = std::max(cell * scale - 2.0f, 2.0f);
    for (std::size_t t = 0; t < p.targets.size(); ++t) {
      const ImVec2 a{target_x[t] + 1.0f, targets_y};
      const ImVec2 b{a.x + target_w, targets_y + lane_h};
      draw->AddRectFilled(a, b, target_color(static_cast<std::uint32_t>(t)));
      draw->AddRect(a, b, border);
      const std::string count = "×" + std::to_string(p.targets[t].lanes);
      const ImVec2 size = ImGui::CalcTextSize(count.c_str());
      if (size.x + 2.0f <= target_w) {
        draw->AddText({a.x + (target_w - size.x) * 0.5f, a.y + (lane_h - size.y) * 0.5f}, ink(),
                      count.c_str());
      }
      if (inside(a, b)) {
        hovered = "sector (32 bytes): " + view.target_labels[t] + "\n" +
                  std::to_string(p.targets[t].lanes) + " lanes read or write it";
      }
    }
    // A bracket under each line's sectors.
    const float bracket_y = targets_y + lane_h + 3.0f;
    std::size_t first = 0;
    for (std::size_t t = 0; t <= p.targets.size(); ++t) {
      if (t < p.targets.size() && p.targets[t].line == p.targets[first].line) continue;
      if (!p.targets.empty()) {
        const float x0 = target_x[first] + 1.0f;
        const float x1 = target_x[t - 1] + 1.0f + target_w;
        draw->AddLine({x0, bracket_y}, {x1, bracket_y}, muted, 1.5f);
      }
      first = t;
    }
    const std::string span = p.targets.empty()       ? std::string()
                             : p.targets.size() == 1 ? " (" + view.target_labels.front() + ")"
                                                     : " (" + view.target_labels.front() + " to " +
                                                           view.target_labels.back() + ")";
    caption = std::to_string(p.actual) + (p.actual == 1 ? " sector" : " sectors") + " of 32 bytes" +
              span + ", in " + std::to_string(p.lines) + (p.lines == 1 ? " line" : " lines") +
              " of 128 bytes (a bar under each)";
    bottom = bracket_y + 3.0f;
  } else {
    // The 32 banks under the lanes, each in the colour of the lanes drawn to it; each distinct
    // word of a bank one box of its stack, so a stack of k is a k-way conflict, served in k
    // wavefronts (outlined in the warning colour). The stack's boxes shrink as it grows, so that
    // a 32-way conflict still fits the panel.
    std::uint32_t tallest = 1;
    for (const memory::PictureTarget& t : p.targets) tallest = std::max(tallest, t.words);
    const float room = lane_h * 3.0f;
    const float word_h = std::clamp(room / static_cast<float>(tallest), 3.0f, lane_h);
    const ImU32 conflict = vec_color(palette().warning);
    for (std::size_t t = 0; t < p.targets.size(); ++t) {
      target_x[t] = origin.x + static_cast<float>(t) * cell;
      const memory::PictureTarget& bank = p.targets[t];
      const float stack_bottom =
          targets_y + std::max(lane_h, static_cast<float>(bank.words) * word_h);
      const ImVec2 a{target_x[t] + 1.0f, targets_y};
      const ImVec2 b{a.x + box, stack_bottom};
      for (std::uint32_t w = 0; w < bank.words; ++w) {
        const float y0 = targets_y + static_cast<float>(w) * word_h;
        draw->AddRectFilled({a.x, y0}, {b.x, y0 + std::max(word_h - 1.0f, 2.0f)},
                            target_color(static_cast<std::uint32_t>(t)));
      }
      if (bank.words > 1) {
        draw->AddRect({a.x - 1.0f, a.y - 1.0f}, {b.x + 1.0f, b.y + 1.0f}, conflict, 0.0f, 0, 2.0f);
      } else {
        draw->AddRect(a, b, border);
      }
      if (every_number || t % 8 == 0 || t == 31) {
        const std::string number = std::to_string(t);
        const ImVec2 size = ImGui::CalcTextSize(number.c_str());
        draw->AddText({a.x + (box - size.x) * 0.5f, targets_y - label_h - 1.0f}, muted,
                      number.c_str());
      }
      if (inside(a, b)) {
        hovered = "bank " + std::to_string(t) + ": " + std::to_string(bank.lanes) + " lanes, " +
                  std::to_string(bank.words) + " distinct words" +
                  (bank.words > 1 ? " (served one after another: " + std::to_string(bank.words) +
                                        " wavefronts)"
                                  : "");
      }
      bottom = std::max(bottom, stack_bottom);
    }
    caption =
        "the 32 banks of shared memory (4-byte words, bank numbers above): a stack of k boxes is "
        "k distinct words of one bank, a k-way conflict";
    bottom += 3.0f;
  }

  // A line from each active lane to its target, in the target's colour.
  for (const memory::PictureLane& lane : p.lanes) {
    if (lane.lane >= 32 || lane.target >= target_x.size()) continue;
    const ImVec2 from{origin.x + static_cast<float>(lane.lane) * cell + 1.0f + box * 0.5f,
                      lanes_y + lane_h};
    const float top = global ? targets_y : targets_y - label_h - 1.0f;
    const ImVec2 to{target_x[lane.target] + 1.0f + target_w * 0.5f, top};
    draw->AddLine(from, to, target_color(lane.target, 0.9f), 1.5f);
  }
  ImGui::Dummy({32.0f * cell, bottom - origin.y});
  // Wrapped under the picture: in a narrow column (the Lab's) a caption on one line would run
  // past its edge.
  wrapped(palette().muted, caption);
  if (!hovered.empty()) tooltip(hovered);
}

}  // namespace tl::ui
