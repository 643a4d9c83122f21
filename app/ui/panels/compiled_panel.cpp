// The lesson workspace's Compiled tab: what nvcc made of the lesson's kernels (the controller,
// compiled_view_controller.hpp, holds it all): a kernel picker, its resources and instructions by
// kind with a step to the Occupancy tab, and its source beside its SASS or its PTX. A click on a
// source line lights the instructions made from it; a click on an instruction picks its line;
// hovering an instruction gives its gloss. Memory instructions are coloured by space, local ones
// (spills) as warnings. Long listings are drawn through ImGui's clipper: only the visible rows cost
// a frame.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app_controller.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

using compiled::InstructionKind;

ImVec4 kind_color(InstructionKind kind) {
  const Palette& p = palette();
  switch (kind) {
    case InstructionKind::kGlobalLoad:
    case InstructionKind::kGlobalStore:
    case InstructionKind::kAsyncCopy:
      return p.link;
    case InstructionKind::kSharedLoad:
    case InstructionKind::kSharedStore:
      return p.ok;
    case InstructionKind::kLocalLoad:
    case InstructionKind::kLocalStore:
      return p.error;
    case InstructionKind::kBarrier:
    case InstructionKind::kShuffle:
    case InstructionKind::kVote:
    case InstructionKind::kAtomic:
    case InstructionKind::kTensorCore:
      return p.warning;
    default:
      return ImGui::GetStyleColorVec4(ImGuiCol_Text);
  }
}

void draw_source(CompiledViewController& view, const CompiledViewState& s, bool scroll) {
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(s.source.size()));
  if (scroll && s.selected_line > 0)
    clipper.ForceDisplayRangeByIndices(s.selected_line - 1, s.selected_line);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const CompiledSourceRow& row = s.source[static_cast<std::size_t>(i)];
      char label[16];
      std::snprintf(label, sizeof label, "%4d", row.line);
      ImGui::PushID(i);
      ImGui::BeginDisabled(row.instructions == 0);
      if (ImGui::Selectable(
              label, row.line == s.selected_line,
              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap)) {
        view.select_line(row.line);
      }
      ImGui::EndDisabled();
      if (scroll && row.line == s.selected_line) ImGui::SetScrollHereY(0.3f);
      ImGui::SameLine();
      ImGui::TextUnformatted(row.text.c_str());
      if (row.instructions > 0) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%zu)", row.instructions);
      }
      ImGui::PopID();
    }
  }
}

void draw_sass(CompiledViewController& view, const CompiledViewState& s, bool scroll) {
  if (s.sass.empty() && !s.sass_unavailable.empty()) {
    ImGui::TextDisabled("%s", s.sass_unavailable.c_str());
    return;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(s.sass.size()));
  if (scroll && s.selected_instruction) {
    const int at = static_cast<int>(*s.selected_instruction);
    clipper.ForceDisplayRangeByIndices(at, at + 1);
  }
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const CompiledSassRow& row = s.sass[static_cast<std::size_t>(i)];
      ImGui::PushID(i);
      const bool selected = s.selected_instruction == static_cast<std::size_t>(i);
      if (ImGui::Selectable(
              row.offset.c_str(), row.lit || selected,
              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap)) {
        view.select_instruction(static_cast<std::size_t>(i));
      }
      if (ImGui::IsItemHovered()) {
        std::string text = row.text;
        if (!row.where.empty()) text += "\n" + row.where;
        if (row.kind != InstructionKind::kOther) {
          text += "\n" + std::string(compiled::kind_name(row.kind));
        }
        if (!row.gloss.empty()) text += "\n\n" + std::string(row.gloss);
        wrapped_tooltip("%s", text.c_str());
      }
      if (scroll && selected) ImGui::SetScrollHereY(0.3f);
      ImGui::SameLine();
      ImGui::TextColored(kind_color(row.kind), "%s", row.text.c_str());
      ImGui::PopID();
    }
  }
}

void draw_ptx(CompiledViewController& view, const CompiledViewState& s, bool scroll) {
  if (s.ptx.empty()) {
    ImGui::TextDisabled("%s", s.ptx_unavailable.c_str());
    return;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(s.ptx.size()));
  if (scroll && s.first_lit_ptx) {
    const int at = static_cast<int>(*s.first_lit_ptx);
    clipper.ForceDisplayRangeByIndices(at, at + 1);
  }
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const CompiledPtxRow& row = s.ptx[static_cast<std::size_t>(i)];
      ImGui::PushID(i);
      if (ImGui::Selectable(
              "##ptx", row.lit,
              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap)) {
        view.select_ptx_row(static_cast<std::size_t>(i));
      }
      if (scroll && s.first_lit_ptx == static_cast<std::size_t>(i)) ImGui::SetScrollHereY(0.3f);
      ImGui::SameLine();
      ImGui::TextUnformatted(row.text.c_str());
      ImGui::PopID();
    }
  }
}

// The lesson's timed kernels side by side: what each rung of a ladder spends (registers, shared
// memory) against the work each shared-memory load feeds. A click opens that kernel's SASS.
void draw_side_by_side(CompiledViewController& view, const CompiledViewState& s) {
  constexpr ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                    ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                    ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("compiled_side_by_side", 11, flags)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const char* heading : {"kernel", "registers", "shared B", "spills", "instructions", "LDG",
                              "of them 128-bit", "LDS", "FMA", "FMA / LDS", "MUFU"}) {
    ImGui::TableSetupColumn(heading);
  }
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < s.side_by_side.size(); ++i) {
    const CompiledComparisonRow& row = s.side_by_side[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(row.name.c_str(), row.kernel == s.kernel,
                          ImGuiSelectableFlags_SpanAllColumns)) {
      view.select_kernel(row.kernel);
      view.show_listing(CompiledListingShown::kSass);
    }
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::Text("%d", row.registers);
    ImGui::TableNextColumn();
    ImGui::Text("%d", row.shared_bytes);
    ImGui::TableNextColumn();
    if (row.spills > 0) {
      ImGui::TextColored(palette().error, "%zu", row.spills);
    } else {
      ImGui::TextUnformatted("0");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.instructions);
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.global_loads);
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.global_loads_128);
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.shared_loads);
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.multiply_adds);
    ImGui::TableNextColumn();
    if (row.shared_loads > 0) {
      ImGui::Text("%.1f", row.multiply_adds_per_shared_load);
    } else {
      ImGui::TextDisabled("-");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%zu", row.special_functions);
  }
  ImGui::EndTable();
}

}  // namespace

void draw_compiled_panel(AppController& controller, const Fonts& fonts) {
  // A command, not a computation: parses the lesson's listings the first time it is shown.
  controller.show_compiled_view();
  CompiledViewController& view = controller.compiled_view();
  const CompiledViewState& s = view.state();
  if (!s.unavailable.empty()) {
    ImGui::BeginDisabled();
    ImGui::TextWrapped("%s", s.unavailable.c_str());
    ImGui::EndDisabled();
    return;
  }
  const CompiledKernelEntry& kernel = s.kernels[s.kernel];
  ImGui::SetNextItemWidth(
      std::min(ImGui::GetContentRegionAvail().x * 0.6f, ImGui::GetFontSize() * 40.0f));
  if (ImGui::BeginCombo("##compiled_kernel", kernel.name.c_str())) {
    for (std::size_t i = 0; i < s.kernels.size(); ++i) {
      const std::string label =
          s.kernels[i].name + (s.kernels[i].traced ? "  (traced)" : "") + "##" + std::to_string(i);
      if (ImGui::Selectable(label.c_str(), i == s.kernel)) view.select_kernel(i);
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "The lesson's kernels as nvcc compiled them for %s (listings made at build time by the "
        "CUDA toolkit: no GPU needed). Traced twins record who computed what for the mapping "
        "view; the timings use the others.",
        kernel.arch.c_str());
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Occupancy →")) controller.show_results(ResultsTab::kOccupancy);
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "How many blocks of the timed kernel fit on one SM with these registers and this "
        "shared memory, and which of them sets the limit");
  }
  ImGui::SameLine();
  draw_compiled_listing(view, fonts, 0.0f, /*side_by_side=*/true);
}

void draw_compiled_listing(CompiledViewController& view, const Fonts& fonts, float height,
                           bool side_by_side) {
  const CompiledViewState& s = view.state();
  if (ImGui::RadioButton("SASS", s.listing == CompiledListingShown::kSass)) {
    view.show_listing(CompiledListingShown::kSass);
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("The machine code the GPU runs, as the toolkit's disassembler reads it");
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("PTX", s.listing == CompiledListingShown::kPtx)) {
    view.show_listing(CompiledListingShown::kPtx);
  }
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip(
        "The virtual instruction set nvcc hands to ptxas, which allocates registers and "
        "schedules it into SASS: PTX has unlimited virtual registers, so spills and the real "
        "register count appear only in the SASS");
  }
  if (side_by_side) {
    ImGui::SameLine();
    if (ImGui::RadioButton("Side by side", s.listing == CompiledListingShown::kSideBySide)) {
      view.show_listing(CompiledListingShown::kSideBySide);
    }
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip(
          "Every timed kernel of the lesson in one table: registers and shared memory a block "
          "against the instructions in the SASS. FMA / LDS is how many multiply-adds each "
          "shared-memory load instruction feeds: the register-tiled rungs raise it at the cost "
          "of registers, and so of occupancy. Click a kernel for its SASS.");
    }
  }
  if (side_by_side) {
    ImGui::PushStyleColor(ImGuiCol_Text, s.spills ? palette().warning : palette().muted);
    ImGui::TextWrapped("%s", s.summary.c_str());
    ImGui::PopStyleColor();
  }

  const bool scroll = ImGui::GetStateStorage()->GetInt(ImGui::GetID("compiled_selections"), -1) !=
                      static_cast<int>(s.selections);
  ImGui::GetStateStorage()->SetInt(ImGui::GetID("compiled_selections"),
                                   static_cast<int>(s.selections));
  if (s.listing == CompiledListingShown::kSideBySide) {
    draw_side_by_side(view, s);
    return;
  }
  const float width = ImGui::GetContentRegionAvail().x;
  const float source_width = std::floor(width * 0.45f);
  ImGui::PushFont(fonts.mono);
  ImGui::BeginChild("compiled_source", {source_width, height}, true,
                    ImGuiWindowFlags_HorizontalScrollbar);
  if (s.source.empty()) {
    ImGui::TextDisabled("The source of %s is not embedded.", s.source_path.c_str());
  } else {
    draw_source(view, s, scroll);
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("compiled_sass", {0, height}, true, ImGuiWindowFlags_HorizontalScrollbar);
  if (s.listing == CompiledListingShown::kPtx) {
    draw_ptx(view, s, scroll);
  } else {
    draw_sass(view, s, scroll);
  }
  ImGui::EndChild();
  ImGui::PopFont();
}

}  // namespace tl::ui
