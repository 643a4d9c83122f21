// The reductions lesson's tabs. The tree: one row per level, one cell per thread of block 0,
// coloured by warp where the thread added a pair and grey where it idled, with a line from each
// pair's source partial (in the row above) to its destination. The banks: per level and warp, the
// lanes at work and how many passes their reads take. Contention and numerics: the runner's
// measurements as bars and a table.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "panels/draw_colors.hpp"
#include "reduction_panels.hpp"
#include "theme.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui::reductions_views {
namespace {

using lessons::SumRung;

const compute::ReductionsReport* shown_report(LessonViewContext& context) {
  return compute::reductions_report(context.state().lesson_picture);
}

bool title(const Fonts& fonts, const char* text, const compute::ReductionsReport* report) {
  ImGui::PushFont(fonts.bold);
  ImGui::TextWrapped("%s", text);
  ImGui::PopFont();
  if (report == nullptr) {
    ImGui::TextColored(palette().muted, "Launch to see it: the timed run records it.");
    return false;
  }
  return true;
}

// The rung the controls select (the one traced), else the warp-shuffle tree.
SumRung selected_rung(LessonViewContext& context) {
  const auto& values = context.state().controls.values;
  const auto it = values.find("kernel");
  if (it == values.end()) return SumRung::kWarpShuffle;
  auto rung = lessons::parse_sum_rung(it->second);
  return rung ? *rung : SumRung::kWarpShuffle;
}

std::string text_of(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

}  // namespace

void draw_tree_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::ReductionsReport* report = shown_report(context);
  if (!title(fonts, "Block 0's tree, level by level", report)) return;
  const SumRung wanted = selected_rung(context);
  const lessons::ReductionTree* tree = nullptr;
  for (const auto& t : report->trees) {
    if (t.rung == wanted) tree = &t;
  }
  if (tree == nullptr) {
    ImGui::TextWrapped("%s has no tree: every element is its own atomicAdd on the result.",
                       std::string(lessons::to_string(wanted)).c_str());
    return;
  }
  ImGui::TextColored(palette().muted,
                     "%s, a block of %u threads, from a traced launch. Each row is one level; a "
                     "coloured cell is a thread that added (colour: its warp), a grey one idled.",
                     std::string(lessons::describe(tree->rung)).c_str(), tree->threads);
  const float width = ImGui::GetContentRegionAvail().x;
  const float cell = std::max(3.0f, std::min(24.0f, width / static_cast<float>(tree->threads)));
  const float row_gap = cell * 2.5f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  std::string hovered;
  for (std::size_t level = 0; level < tree->levels.size(); ++level) {
    const float y = origin.y + static_cast<float>(level) * (cell + row_gap) + row_gap;
    std::vector<const lessons::TreeAdd*> by_thread(tree->threads, nullptr);
    for (const auto& add : tree->levels[level])
      by_thread[static_cast<std::size_t>(add.thread)] = &add;
    for (std::uint32_t t = 0; t < tree->threads; ++t) {
      const ImVec2 min{origin.x + static_cast<float>(t) * cell, y};
      const ImVec2 max{min.x + cell - 1, min.y + cell - 1};
      const lessons::TreeAdd* add = by_thread[t];
      draw->AddRectFilled(
          min, max,
          to_imgui(add != nullptr ? categorical_color(t / 32) : idle_thread_color(false)));
      if (add != nullptr) {
        // From the source partial's column one row up to the destination's column.
        const float from_x = origin.x + (static_cast<float>(add->src) + 0.5f) * cell;
        const float to_x = origin.x + (static_cast<float>(add->dst) + 0.5f) * cell;
        draw->AddLine({from_x, y - row_gap + 2}, {to_x, y - 1},
                      to_imgui(categorical_color(t / 32), 0.7f));
      }
      if (ImGui::IsWindowHovered() && mouse.x >= min.x && mouse.x < max.x && mouse.y >= min.y &&
          mouse.y < max.y) {
        hovered = "level " + std::to_string(level) + ", thread " + std::to_string(t) +
                  (add != nullptr ? ": partial " + std::to_string(add->dst) + " += partial " +
                                        std::to_string(add->src)
                                  : ": idle");
      }
    }
  }
  ImGui::Dummy({width, static_cast<float>(tree->levels.size()) * (cell + row_gap) + row_gap});
  if (!hovered.empty()) wrapped_tooltip("%s", hovered.c_str());
}

void draw_banks_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::ReductionsReport* report = shown_report(context);
  if (!title(fonts, "Shared-memory banks of the three trees", report)) return;
  ImGui::TextColored(palette().muted,
                     "32 banks of 4-byte words, word w in bank w mod 32. Per level and warp: the "
                     "lanes at work and the passes their reads take (1 = conflict free).");
  for (std::size_t i = 0; i < report->trees.size(); ++i) {
    const auto& tree = report->trees[i];
    if (tree.rung != SumRung::kInterleaved && tree.rung != SumRung::kStrided &&
        tree.rung != SumRung::kSequential) {
      continue;
    }
    ImGui::Separator();
    ImGui::TextUnformatted(std::string(lessons::describe(tree.rung)).c_str());
    const auto& levels = report->banks[i];
    const int warps = levels.empty() ? 0 : static_cast<int>(levels.front().warps.size());
    const std::string id = "banks" + std::to_string(i);
    if (warps == 0 || !ImGui::BeginTable(id.c_str(), warps + 1, ImGuiTableFlags_Borders)) continue;
    ImGui::TableSetupColumn("level");
    for (int w = 0; w < warps; ++w) ImGui::TableSetupColumn(("warp " + std::to_string(w)).c_str());
    ImGui::TableHeadersRow();
    for (std::size_t level = 0; level < levels.size(); ++level) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%zu", level);
      for (const auto& access : levels[level].warps) {
        ImGui::TableNextColumn();
        if (access.ways == 0) {
          ImGui::TextColored(palette().muted, "idle");
        } else {
          const ImVec4 color = access.ways > 1 ? palette().warning : palette().ok;
          ImGui::TextColored(color, "%zu lanes, %d-way", access.lanes.size(), access.ways);
          if (ImGui::IsItemHovered()) {
            std::string words;
            for (std::size_t k = 0; k < access.lanes.size(); ++k) {
              words += "lane " + std::to_string(access.lanes[k]) + ": words " +
                       std::to_string(access.dst_words[k]) + " (bank " +
                       std::to_string(access.dst_words[k] % 32) + "), " +
                       std::to_string(access.src_words[k]) + " (bank " +
                       std::to_string(access.src_words[k] % 32) + ")\n";
            }
            wrapped_tooltip("%s", words.c_str());
          }
        }
      }
    }
    ImGui::EndTable();
  }
}

void draw_contention_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::ReductionsReport* report = shown_report(context);
  if (!title(fonts, "Atomic contention", report)) return;
  ImGui::TextColored(palette().muted,
                     "%s atomicAdds, element i on address i mod A: the time of one launch "
                     "against A, the number of distinct addresses%s.",
                     format_count(report->n).c_str(),
                     report->on_gpu ? "" : " (emulated: CPU time)");
  double longest = 0;
  for (const auto& point : report->contention) longest = std::max(longest, point.median_ms);
  // Every bar starts at the same x, after the widest label (each label right-aligned to it), and
  // its time follows its end, off the bar: "%12s" padded with spaces of a proportional font, so
  // each bar started where its own label ended, and the time straddled the bar's end.
  std::vector<std::string> labels;
  std::vector<std::string> values;
  float label_width = 0;
  float value_width = 0;
  for (const auto& point : report->contention) {
    labels.push_back(format_count(point.addresses));
    values.push_back(text_of("%.3g ms", point.median_ms));
    label_width = std::max(label_width, ImGui::CalcTextSize(labels.back().c_str()).x);
    value_width = std::max(value_width, ImGui::CalcTextSize(values.back().c_str()).x);
  }
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float start = ImGui::GetCursorPosX();
  const float bar_left = start + label_width + spacing;
  const float bar_width =
      std::max(ImGui::GetFontSize() * 4.0f,
               ImGui::GetContentRegionAvail().x - label_width - value_width - 2.0f * spacing);
  for (std::size_t i = 0; i < report->contention.size(); ++i) {
    const auto& point = report->contention[i];
    ImGui::SetCursorPosX(start + label_width - ImGui::CalcTextSize(labels[i].c_str()).x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(labels[i].c_str());
    ImGui::SameLine(bar_left);
    const float fraction = longest > 0 ? static_cast<float>(point.median_ms / longest) : 0.0f;
    ImGui::ProgressBar(fraction, {bar_width, 0}, "");
    ImGui::SameLine();
    ImGui::TextUnformatted(values[i].c_str());
  }
}

void draw_numerics_panel(LessonViewContext& context, const Fonts& fonts) {
  const compute::ReductionsReport* report = shown_report(context);
  if (!title(fonts, "The same sum, different answers", report)) return;
  ImGui::TextColored(palette().muted,
                     "%s elements (%s). float64 sum %.17g, sum of |x| %.6g. Bound: depth · 2^-24 · "
                     "sum |x|, each rung with its own depth.",
                     format_count(report->n).c_str(), report->on_gpu ? "GPU" : "emulator",
                     report->exact, report->abs_total);
  if (!ImGui::BeginTable("numerics", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
  for (const char* column : {"sum", "result", "error", "relative", "bound"}) {
    ImGui::TableSetupColumn(column);
  }
  ImGui::TableHeadersRow();
  auto row = [](const lessons::SumCheck& check) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(check.what.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.9g", check.value);
    ImGui::TableNextColumn();
    ImGui::TextColored(check.passed ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : palette().error,
                       "%.3g", check.error);
    ImGui::TableNextColumn();
    ImGui::Text("%.2g", check.relative_error());
    ImGui::TableNextColumn();
    if (check.tolerance > 0) {
      ImGui::Text("%.3g", check.tolerance);
    } else {
      ImGui::TextColored(palette().muted, "shown only");
    }
  };
  for (const auto& rung : report->rungs) row(rung.check);
  if (report->library_check) row(*report->library_check);
  for (const auto& cpu : report->cpu_sums) row(cpu);
  ImGui::EndTable();
}

}  // namespace tl::ui::reductions_views
