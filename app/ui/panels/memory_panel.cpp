// The lesson workspace's Memory tab: the current lesson's kernels, recorded on the emulator by the
// controller (lesson_memory_controller.hpp), as a per-line table under Nsight Compute's names, and
// one warp's request of the selected line drawn: the 32 lanes in a row, each joined to the 32-byte
// sector (global memory) or the bank (shared memory) it touched (memory_request_drawing.hpp, which
// the Kernel Lab's Memory panel draws with too). This file draws what the state holds; the
// request's layout (which lane goes where, how words stack in a bank) is computed in
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
#include "memory_request_drawing.hpp"
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

std::string per_request(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// The arrows under the picture move through the selected line's requests.
void step(LessonMemoryController& memory, const MemoryRequestView& view, RequestStep pressed) {
  if (pressed == RequestStep::kPrevious && view.index > 0) memory.select_request(view.index - 1);
  if (pressed == RequestStep::kNext) memory.select_request(view.index + 1);
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

}  // namespace

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
  if (!kernel.measured.empty()) {
    wrapped(kernel.measured_read ? palette().ok : palette().muted, kernel.measured);
  }

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
    if (s.request) step(memory, *s.request, draw_memory_request(*s.request));
    ImGui::EndChild();
  } else {
    ImGui::BeginChild("memory_body", {0, 0}, false);
    draw_table(memory, s, fonts, table_h);
    ImGui::Spacing();
    if (s.request) step(memory, *s.request, draw_memory_request(*s.request));
    ImGui::EndChild();
  }
  ImGui::EndDisabled();
}

}  // namespace tl::ui
