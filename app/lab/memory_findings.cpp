#include "lab/memory_findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/memory/memory_model.hpp"
#include "lab/lab_check.hpp"

namespace tl::lab {
namespace {

using memory::AccessKind;
using memory::LineTotals;
using memory::MemorySpace;

std::string line_suffix(int line) {
  return line > 0 ? " — line " + std::to_string(line) : " — line unknown";
}

}  // namespace

std::string per_request_text(double value) {
  const double rounded = std::round(value * 10.0) / 10.0;
  char text[32];
  if (rounded == std::floor(rounded)) {
    std::snprintf(text, sizeof text, "%.0f", rounded);
  } else {
    std::snprintf(text, sizeof text, "%.1f", rounded);
  }
  return text;
}

std::string row_target(const Exercise& exercise, const MemoryReply& reply, std::size_t row) {
  if (row < reply.table.rows.size() && reply.table.rows[row].space == MemorySpace::kShared) {
    return "shared memory";
  }
  const int argument = row < reply.row_argument.size() ? reply.row_argument[row] : -1;
  if (argument == MemoryReply::kSeveralArrays) return "several arrays";
  if (argument < 0 || static_cast<std::size_t>(argument) >= exercise.parameters.size()) {
    return "global memory";
  }
  return "`" + exercise.parameters[static_cast<std::size_t>(argument)].name + "`";
}

std::vector<MemoryNote> memory_notes(const Exercise& exercise, const MemoryReply& reply) {
  std::vector<MemoryNote> notes;
  for (std::size_t i = 0; i < reply.table.rows.size(); ++i) {
    const LineTotals& row = reply.table.rows[i];
    MemoryNote note;
    note.line = row.line;
    const bool load = row.kind == AccessKind::kLoad;
    if (row.space == MemorySpace::kGlobal) {
      const std::string what =
          std::string(load ? "your loads of " : "your stores to ") + row_target(exercise, reply, i);
      const double sectors = row.sectors_per_request();
      const double ideal = row.ideal_sectors_per_request();
      note.ideal = row.sectors <= row.ideal_sectors;
      if (note.ideal) {
        note.text = what + " move " + per_request_text(sectors) +
                    " sectors per request, the fewest that hold the bytes used";
      } else {
        note.text = what + " move " + per_request_text(sectors) + " sectors for every " +
                    per_request_text(ideal) + " used (" +
                    per_request_text(static_cast<double>(row.sectors) /
                                     static_cast<double>(row.ideal_sectors)) +
                    "× the bytes needed)";
      }
    } else {
      const std::string what = load ? "your shared-memory loads" : "your shared-memory stores";
      note.ideal = row.bank_conflicts() == 0;
      if (note.ideal) {
        note.text = what + " have no bank conflicts";
      } else {
        note.text = what + " hit a " + std::to_string(row.worst_conflict_degree) +
                    "-way bank conflict: " +
                    per_request_text(static_cast<double>(row.wavefronts) /
                                     static_cast<double>(row.requests)) +
                    " wavefronts per request where " +
                    per_request_text(static_cast<double>(row.ideal_wavefronts) /
                                     static_cast<double>(row.requests)) +
                    " would do";
      }
    }
    note.text += line_suffix(row.line);
    notes.push_back(std::move(note));
  }
  return notes;
}

std::vector<LoadBudgetNote> load_budget_notes(const Exercise& exercise, const MemoryReply& reply) {
  std::vector<LoadBudgetNote> notes;
  for (std::size_t p = 0; p < exercise.parameters.size(); ++p) {
    const ParameterSpec& parameter = exercise.parameters[p];
    if (parameter.kind != ParameterKind::kInputArray) continue;
    const auto recorded = std::find_if(
        reply.arrays.begin(), reply.arrays.end(),
        [&](const MemoryReply::RecordedArray& a) { return a.argument == static_cast<int>(p); });
    if (recorded == reply.arrays.end() || recorded->loads.blocks == 0) continue;
    LoadBudgetNote note;
    note.argument = static_cast<int>(p);
    note.array = parameter.name;
    note.loads_per_element = recorded->loads.loads_per_element();
    note.blocks = recorded->loads.blocks;
    const Exercise::AccessBudget* budget = nullptr;
    for (const Exercise::AccessBudget& b : exercise.access_budgets) {
      if (b.array == parameter.name) budget = &b;
    }
    if (budget != nullptr) note.expected = budget->loads_per_element;
    // A tenth over the budget is still within it: blocks at the data's edge load a little
    // differently, and the figure is printed to a tenth.
    const double limit = note.expected.value_or(1.0);
    note.within = note.loads_per_element <= limit * 1.1 + 1e-9;
    const std::string times = std::round(note.loads_per_element * 10.0) == 10.0
                                  ? std::string("once")
                                  : per_request_text(note.loads_per_element) + " times";
    note.text = "each block reads each element of `" + parameter.name + "` it uses " + times +
                " from global memory (on average over the " + std::to_string(note.blocks) +
                (note.blocks == 1 ? " recorded block)" : " recorded blocks)");
    if (budget != nullptr && note.within) {
      note.text += ", within the budget: " + budget->how + " it needs about " +
                   per_request_text(budget->loads_per_element);
    } else if (budget != nullptr) {
      note.text +=
          "; " + budget->how + " it needs about " + per_request_text(budget->loads_per_element);
    }
    notes.push_back(std::move(note));
  }
  return notes;
}

const LoadBudgetNote* row_budget(const MemoryFindings& findings, std::size_t row) {
  const std::vector<LineTotals>& rows = findings.reply.table.rows;
  if (row >= rows.size() || rows[row].space != MemorySpace::kGlobal ||
      rows[row].kind != AccessKind::kLoad || row >= findings.reply.row_argument.size()) {
    return nullptr;
  }
  const int argument = findings.reply.row_argument[row];
  for (const LoadBudgetNote& note : findings.budgets) {
    if (note.argument == argument) return &note;
  }
  return nullptr;
}

std::string memory_scope_label(const MemoryFindings& findings) {
  const memory::MemoryTable& table = findings.reply.table;
  std::string text = "recorded every warp of ";
  const std::string where = findings.case_label + " " + launch_text(findings.launch);
  if (table.extrapolated()) {
    text += std::to_string(table.recorded_blocks) + " of " + std::to_string(table.grid_blocks) +
            " blocks of " + where + ": counts are those blocks'; the grid's are about " +
            per_request_text(table.grid_scale()) +
            "× as many (extrapolated: blocks at the data's edge may differ)";
  } else {
    text += "all " + std::to_string(table.grid_blocks) + " blocks of " + where + ": exact";
  }
  if (findings.beside_gpu) {
    text += ". These figures are the emulator's model of your kernel, not the GPU's counters";
  }
  return text;
}

std::string memory_badge(const LineTotals& row) {
  if (row.space == MemorySpace::kGlobal) {
    std::string badge = per_request_text(row.sectors_per_request()) + " sectors / request — ";
    if (row.sectors <= row.ideal_sectors) return badge + "ideal";
    return badge +
           per_request_text(static_cast<double>(row.sectors) /
                            static_cast<double>(row.ideal_sectors)) +
           "× the bytes needed";
  }
  if (row.bank_conflicts() == 0) return "no bank conflict";
  return std::to_string(row.worst_conflict_degree) + "-way bank conflict";
}

std::vector<MemoryLine> memory_lines(const Exercise& exercise, std::string_view source,
                                     const MemoryFindings& findings) {
  std::vector<MemoryLine> lines;
  const std::vector<LineTotals>& rows = findings.reply.table.rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const LineTotals& row = rows[i];
    MemoryLine line;
    line.line = row.line;
    line.source = source_line(source, row.line);
    const bool load = row.kind == AccessKind::kLoad;
    line.access = row.space == MemorySpace::kShared
                      ? std::string(load ? "shared-memory load" : "shared-memory store")
                      : std::string(load ? "load of " : "store to ") +
                            row_target(exercise, findings.reply, i);
    line.badge = memory_badge(row);
    if (i < findings.notes.size()) {
      line.note = findings.notes[i].text;
      line.ideal = findings.notes[i].ideal;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string source_line(std::string_view source, int line) {
  if (line <= 0) return {};
  std::size_t start = 0;
  for (int at = 1; at < line; ++at) {
    start = source.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  std::size_t end = source.find('\n', start);
  std::string_view text = source.substr(start, end == std::string_view::npos ? end : end - start);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

}  // namespace tl::lab
