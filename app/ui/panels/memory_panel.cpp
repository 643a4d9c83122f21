// The lesson workspace's Memory tab: the current lesson's kernels, recorded on the emulator by the
// controller (lesson_memory_controller.hpp), as a per-line table under Nsight Compute's names, and
// one warp's request of the selected line drawn: the 32 lanes in a row, each joined to the 32-byte
// sector (global memory) or the bank (shared memory) it touched. This file draws what the state
// holds; the request's layout (which lane goes where, how words stack in a bank) is computed in
// core/memory/request_picture.hpp and tested there.

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/color_scheme.hpp"
#include "draw_colors.hpp"
#include "panels.hpp"

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

std::string per_request(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

void draw_status(AppController& controller, const LessonMemoryState& s) {
  LessonMemoryController& memory = controller.lesson_memory();
  if (s.recording) {
    static constexpr const char* kSpinner[] = {"|", "/", "-", "\\"};
    const int turn = static_cast<int>(ImGui::GetTime() * 8.0) % 4;
    const std::string what =
        s.recording_kernel.empty() ? std::string("the lesson's kernels") : s.recording_kernel;
    ImGui::TextColored(palette().warning, "%s Recording %s (%zu of %zu done)… %.1f s",
                       kSpinner[turn], what.c_str(), s.kernels_done, s.kernels_total, s.seconds);
    if (ImGui::IsItemHovered()) {
      tooltip(
          "Each kernel is built once with memory recording (the system compiler, a second or "
          "more), then a few of its blocks run on the emulator. The window stays usable "
          "meanwhile.");
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) memory.cancel();
    return;
  }
  if (s.cancelled) {
    ImGui::TextColored(palette().muted, "Recording cancelled.");
    ImGui::SameLine();
    if (ImGui::SmallButton("Record")) controller.record_lesson_memory();
    return;
  }
  if (!s.error.empty()) {
    wrapped(palette().error, s.error);
    if (ImGui::SmallButton("Record again")) controller.record_lesson_memory();
  }
}

// The table at its columns' natural widths, scrolling sideways where the panel is narrower (the
// line, its source and its badge first: what a learner reads; the counts after them). `height` 0:
// all the room left. The widths are measured here and given to ImGui as the columns' own: left to
// fit themselves, the columns are a character wide in the first frame a table shows, the frame a
// headless screenshot saves.
void draw_table(LessonMemoryController& memory, const LessonMemoryState& s, const Fonts& fonts,
                float height) {
  const MemoryTabKernel& kernel = s.kernels[s.kernel];
  constexpr int kColumns = 10;
  constexpr int kSource = 1;
  constexpr int kBadge = 2;
  static constexpr const char* kHeaders[kColumns] = {
      "line",          "source",      "",           "access",        "requests", "sectors",
      "sectors / req", "ideal / req", "wavefronts", "bank conflicts"};
  std::vector<std::array<std::string, kColumns>> cells;
  for (const MemoryTabRow& row : kernel.rows) {
    const memory::LineTotals& t = row.totals;
    const bool global = t.space == memory::MemorySpace::kGlobal;
    // The ideal per request: sectors for a global row, wavefronts for a shared one (as the CLI's
    // table gives it).
    const double ideal = global ? t.ideal_sectors_per_request()
                                : (t.requests == 0 ? 0.0
                                                   : static_cast<double>(t.ideal_wavefronts) /
                                                         static_cast<double>(t.requests));
    cells.push_back({t.line > 0 ? std::to_string(t.line) : "?", row.source, row.badge,
                     row.access + " (" + row.arrays + ")", std::to_string(t.requests),
                     global ? std::to_string(t.sectors) : "",
                     global ? per_request(t.sectors_per_request()) : "", per_request(ideal),
                     global ? "" : std::to_string(t.wavefronts),
                     global ? "" : std::to_string(t.bank_conflicts())});
  }
  std::array<float, kColumns> widths{};
  for (int c = 0; c < kColumns; ++c) {
    widths[c] = ImGui::CalcTextSize(kHeaders[c]).x;
    if (c == kSource) ImGui::PushFont(fonts.mono);
    for (const auto& row : cells) {
      widths[c] = std::max(widths[c], ImGui::CalcTextSize(row[c].c_str()).x);
    }
    if (c == kSource) ImGui::PopFont();
  }

  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuterH |
      ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
  // A table of its own per kernel and recording: widths measured for other rows do not carry over.
  ImGui::PushID(static_cast<int>(s.kernel));
  ImGui::PushID(static_cast<int>(s.recordings_finished));
  if (ImGui::BeginTable("memory_lines", kColumns, kFlags, {0, height})) {
    ImGui::TableSetupScrollFreeze(1, 1);  // the line numbers and the header stay in view
    for (int c = 0; c < kColumns; ++c) {
      ImGui::TableSetupColumn(kHeaders[c], ImGuiTableColumnFlags_WidthFixed, widths[c] + 2.0f);
    }
    // The headers, each with the Nsight Compute counters its figures stand for on hover.
    const memory::MetricNames global_ld =
        memory::metric_names(memory::MemorySpace::kGlobal, memory::AccessKind::kLoad);
    const memory::MetricNames global_st =
        memory::metric_names(memory::MemorySpace::kGlobal, memory::AccessKind::kStore);
    const memory::MetricNames shared_ld =
        memory::metric_names(memory::MemorySpace::kShared, memory::AccessKind::kLoad);
    const memory::MetricNames shared_st =
        memory::metric_names(memory::MemorySpace::kShared, memory::AccessKind::kStore);
    const std::string header_notes[kColumns] = {
        "The line of the kernel's source; click a row to draw one warp's request of it",
        "The line's text, in the lesson's .cuh",
        "What the line's requests cost against the fewest that could serve them",
        "Global or shared memory, load or store, and the arrays the requests touch",
        "Warp-level requests in the recorded blocks: " + global_ld.requests + ", " +
            global_st.requests + ", " + shared_ld.requests + ", " + shared_st.requests,
        "32-byte sectors the requests touch: " + global_ld.sectors + ", " + global_st.sectors,
        "Sectors over requests (Nsight Compute's \"sectors per request\")",
        "The fewest per request that could hold the bytes asked for: sectors for global rows, "
        "wavefronts for shared ones",
        "Shared-memory wavefronts: " + shared_ld.wavefronts + ", " + shared_st.wavefronts,
        "Wavefronts beyond the ideal: " + shared_ld.bank_conflicts + ", " +
            shared_st.bank_conflicts};
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < kColumns; ++c) {
      ImGui::TableSetColumnIndex(c);
      ImGui::TableHeader(kHeaders[c]);
      if (ImGui::IsItemHovered()) tooltip(header_notes[c]);
    }
    for (std::size_t i = 0; i < kernel.rows.size(); ++i) {
      const MemoryTabRow& row = kernel.rows[i];
      const memory::LineTotals& t = row.totals;
      const bool global = t.space == memory::MemorySpace::kGlobal;
      ImGui::PushID(static_cast<int>(i));
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (ImGui::Selectable(cells[i][0].c_str(), s.row == i, ImGuiSelectableFlags_SpanAllColumns)) {
        memory.select_row(i);
      }
      if (ImGui::IsItemHovered()) {
        const memory::MetricNames names = memory::metric_names(t.space, t.kind);
        std::string text =
            row.badge + " (" + row.arrays + ")\n\nNsight Compute's counters: " + names.requests +
            (global ? "\n" + names.sectors : "\n" + names.wavefronts + "\n" + names.bank_conflicts);
        if (!global) {
          text += "\nwavefronts " + std::to_string(t.wavefronts) + ", ideal " +
                  std::to_string(t.ideal_wavefronts) + ", worst request " +
                  std::to_string(t.worst_conflict_degree) + "-way";
        }
        tooltip(text + "\n\nClick to draw one warp's request of this line.");
      }
      for (int c = 1; c < kColumns; ++c) {
        ImGui::TableSetColumnIndex(c);
        if (c == kSource) {
          ImGui::PushFont(fonts.mono);
          ImGui::TextUnformatted(cells[i][c].c_str());
          ImGui::PopFont();
        } else if (c == kBadge) {
          ImGui::TextColored(row.ideal ? palette().ok : palette().warning, "%s",
                             cells[i][c].c_str());
        } else {
          ImGui::TextUnformatted(cells[i][c].c_str());
        }
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::PopID();
  ImGui::PopID();
}

// One warp's request: the arrows that step through the line's requests, its title, then the
// picture (draw_memory_request_picture, which `threadlab render --memory-line` draws too).
void draw_request(LessonMemoryController& memory, const MemoryRequestView& view) {
  if (ImGui::ArrowButton("previous_request", ImGuiDir_Left) && view.index > 0) {
    memory.select_request(view.index - 1);
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("next_request", ImGuiDir_Right)) memory.select_request(view.index + 1);
  ImGui::SameLine();
  ImGui::Text("request %zu of %zu on this line:", view.index + 1, view.count);
  // The request's title beside the arrows where it fits on that line, under them where not.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float left = right - ImGui::GetItemRectMax().x - ImGui::GetStyle().ItemSpacing.x;
  if (left >= ImGui::CalcTextSize(view.title.c_str()).x) ImGui::SameLine();
  wrapped(palette().muted, view.title);
  draw_memory_request_picture(view);
}

}  // namespace

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
    draw->AddText({origin.x, bracket_y + 3.0f}, muted,
                  (std::to_string(p.actual) + (p.actual == 1 ? " sector" : " sectors") +
                   " of 32 bytes" + span + ", in " + std::to_string(p.lines) +
                   (p.lines == 1 ? " line" : " lines") + " of 128 bytes (a bar under each)")
                      .c_str());
    bottom = bracket_y + 3.0f + label_h;
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
    draw->AddText({origin.x, bottom + 3.0f}, muted,
                  "the 32 banks of shared memory (4-byte words, bank numbers above): a stack of k "
                  "boxes is k distinct words of one bank, a k-way conflict");
    bottom += 3.0f + label_h;
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
  if (!hovered.empty()) tooltip(hovered);
}

void draw_memory_panel(AppController& controller, const Fonts& fonts) {
  // A command, not a computation: it starts a recording in the background when the lesson or its
  // settings changed since the one on show.
  controller.show_lesson_memory();
  LessonMemoryController& memory = controller.lesson_memory();
  const LessonMemoryState& s = memory.state();
  if (!s.unavailable.empty()) {
    ImGui::BeginDisabled();
    ImGui::TextWrapped("%s", s.unavailable.c_str());
    ImGui::EndDisabled();
    return;
  }
  draw_status(controller, s);
  if (s.kernels.empty()) {
    if (!s.recording && s.error.empty() && !s.cancelled) {
      wrapped(palette().muted, "Nothing recorded yet.");
    }
    return;
  }
  if (s.stale) {
    wrapped(palette().muted, "Recorded at earlier settings of the lesson: " +
                                 std::string(s.recording ? "the new ones are being recorded."
                                                         : "Record to see the current ones."));
  }
  ImGui::BeginDisabled(s.stale);
  for (std::size_t i = 0; i < s.kernels.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    const std::string label = s.kernels[i].label + "##kernel" + std::to_string(i);
    if (ImGui::RadioButton(label.c_str(), s.kernel == i)) memory.select_kernel(i);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      tooltip(s.kernels[i].kernel + " " + s.kernels[i].config.to_string() + ", " +
              s.kernels[i].source);
    }
  }
  // What was recorded, in a few words beside the kernels; the whole of it on hover.
  const MemoryTabKernel& kernel = s.kernels[s.kernel];
  ImGui::SameLine();
  ImGui::TextColored(palette().muted, "%s %s: %s", kernel.kernel.c_str(),
                     kernel.config.to_string().c_str(), kernel.scope_short.c_str());
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip(kernel.scope);
  if (!kernel.note.empty()) wrapped(palette().warning, kernel.note);

  // One under the other where the panel is tall enough for the table and the picture, else side
  // by side where it is wide enough (a short panel: the table and the picture of its selected
  // line still seen together), else one under the other, scrolling.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  // The header, the rows (their source in the mono font, which may be the taller), the sideways
  // scroll bar and the borders.
  const float cell_pad = style.CellPadding.y * 2.0f;
  const float row_h =
      std::max(ImGui::GetTextLineHeight(), fonts.mono != nullptr ? fonts.mono->FontSize : 0.0f) +
      cell_pad;
  const float table_h = ImGui::GetTextLineHeight() + cell_pad +
                        row_h * static_cast<float>(kernel.rows.size()) + style.ScrollbarSize + 4.0f;
  const float picture_h =
      font *
      (s.request && s.request->picture.space == memory::MemorySpace::kShared ? 16.0f : 12.0f);
  const bool side_by_side = avail.y < table_h + picture_h && avail.x >= font * 30.0f;
  if (side_by_side) {
    const float table_w = std::floor(avail.x * 0.4f);
    ImGui::BeginChild("memory_table", {table_w, 0}, false);
    draw_table(memory, s, fonts, 0.0f);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("memory_request", {0, 0}, false);
    if (s.request) draw_request(memory, *s.request);
    ImGui::EndChild();
  } else {
    ImGui::BeginChild("memory_body", {0, 0}, false);
    draw_table(memory, s, fonts, table_h);
    ImGui::Spacing();
    if (s.request) draw_request(memory, *s.request);
    ImGui::EndChild();
  }
  ImGui::EndDisabled();
}

}  // namespace tl::ui
