#include "lab_memory_table.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>

#include "core/memory/memory_model.hpp"
#include "lab/lab_check.hpp"

namespace tl::cli {
namespace {

using memory::AccessKind;
using memory::LineTotals;
using memory::MemorySpace;
using nlohmann::json;

const char* access_name(const LineTotals& row) {
  return row.kind == AccessKind::kLoad ? "load" : "store";
}
const char* space_name(const LineTotals& row) {
  return row.space == MemorySpace::kGlobal ? "global" : "shared";
}

// Who counted: the emulator's model, also when the check itself ran on a GPU.
const char* figures(const lab::MemoryFindings& findings) {
  return findings.beside_gpu ? "emulator model (the check ran on the GPU; its counters not read)"
                             : "emulator model";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

// A per-request figure to two decimals, as CSV and JSON consumers compare them.
double per_request(std::uint64_t total, std::uint64_t requests) {
  return requests == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(requests);
}

std::string fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string clipped(std::string text, std::size_t width) {
  // Columns stay aligned: a long source line is cut (bytes, kept whole where UTF-8 continues).
  if (text.size() <= width) return text;
  std::size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) --cut;
  return text.substr(0, cut) + "...";
}

}  // namespace

void print_memory_table(const lab::Exercise& exercise, std::string_view source,
                        const lab::MemoryFindings& findings, std::ostream& out) {
  out << "memory, " << lab::memory_scope_label(findings) << "\n";
  if (!findings.reply.lines_note.empty()) out << "  (" << findings.reply.lines_note << ")\n";
  constexpr std::size_t kSourceWidth = 44;
  out << std::left << std::setw(6) << "line" << std::setw(kSourceWidth + 2) << "source"
      << std::setw(7) << "access" << std::setw(8) << "space" << std::setw(10) << "array"
      << std::right << std::setw(10) << "requests" << std::setw(10) << "sectors" << std::setw(13)
      << "sectors/req" << std::setw(8) << "ideal" << std::setw(16) << "bank conflicts"
      << "\n";
  const memory::MemoryTable& table = findings.reply.table;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const LineTotals& row = table.rows[i];
    const bool global = row.space == MemorySpace::kGlobal;
    std::string conflicts = "-";
    if (!global) {
      conflicts = std::to_string(row.bank_conflicts());
      if (row.worst_conflict_degree > 1) {
        conflicts += " (" + std::to_string(row.worst_conflict_degree) + "-way)";
      }
    }
    std::string target = lab::row_target(exercise, findings.reply, i);
    if (target == "shared memory") target = "-";
    out << std::left << std::setw(6) << (row.line > 0 ? std::to_string(row.line) : "?")
        << std::setw(kSourceWidth + 2) << clipped(lab::source_line(source, row.line), kSourceWidth)
        << std::setw(7) << access_name(row) << std::setw(8) << space_name(row) << std::setw(10)
        << target << std::right << std::setw(10) << row.requests << std::setw(10)
        << (global ? std::to_string(row.sectors) : "-") << std::setw(13)
        << (global ? lab::per_request_text(row.sectors_per_request()) : "-") << std::setw(8)
        << (global ? lab::per_request_text(row.ideal_sectors_per_request()) : "-") << std::setw(16)
        << conflicts << "\n";
  }
  if (table.rows.empty()) out << "  (no accesses to the kernel's arrays or shared memory)\n";
  if (!findings.budgets.empty()) {
    out << "access budget (global loads per element of each input array, per block):\n";
    for (const lab::LoadBudgetNote& budget : findings.budgets) {
      out << "  " << std::left << std::setw(10) << budget.array << std::right << std::setw(8)
          << lab::per_request_text(budget.loads_per_element) << "  " << budget.text << "\n";
    }
  }
  if (findings.reply.dropped_accesses > 0) {
    out << "  (" << findings.reply.dropped_accesses
        << " further accesses not counted: the kernel's parameters and other memory outside "
           "its arrays and shared memory)\n";
  }
}

void print_memory_csv(const lab::Exercise& exercise, std::string_view source,
                      const lab::MemoryFindings& findings, std::ostream& out) {
  out << "line,source,access,space,array,requests,requests_metric,sectors,sectors_metric,"
         "sectors_per_request,ideal_sectors_per_request,wavefronts,wavefronts_metric,"
         "bank_conflicts,bank_conflicts_metric,worst_conflict_degree,recorded_blocks,grid_blocks,"
         "extrapolated,figures,loads_per_element\n";
  const memory::MemoryTable& table = findings.reply.table;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const LineTotals& row = table.rows[i];
    const memory::MetricNames names = memory::metric_names(row.space, row.kind);
    const bool global = row.space == MemorySpace::kGlobal;
    out << row.line << "," << csv_field(lab::source_line(source, row.line)) << ","
        << access_name(row) << "," << space_name(row) << ","
        << csv_field(lab::row_target(exercise, findings.reply, i)) << "," << row.requests << ","
        << names.requests << ",";
    if (global) {
      out << row.sectors << "," << names.sectors << ","
          << fixed(per_request(row.sectors, row.requests)) << ","
          << fixed(per_request(row.ideal_sectors, row.requests)) << ",,,,,";
    } else {
      out << ",,,," << row.wavefronts << "," << names.wavefronts << "," << row.bank_conflicts()
          << "," << names.bank_conflicts << ",";
    }
    out << (global ? "" : std::to_string(row.worst_conflict_degree)) << "," << table.recorded_blocks
        << "," << table.grid_blocks << "," << (table.extrapolated() ? "true" : "false") << ","
        << csv_field(figures(findings)) << ",";
    // The access budget of the input array the row loads, on each of its load rows.
    if (const lab::LoadBudgetNote* budget = lab::row_budget(findings, i)) {
      out << fixed(budget->loads_per_element);
    }
    out << "\n";
  }
}

json memory_json(const lab::Exercise& exercise, std::string_view source,
                 const lab::MemoryFindings& findings) {
  if (!findings.unavailable.empty()) return {{"unavailable", findings.unavailable}};
  const memory::MemoryTable& table = findings.reply.table;
  json rows = json::array();
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const LineTotals& row = table.rows[i];
    const memory::MetricNames names = memory::metric_names(row.space, row.kind);
    json r{{"line", row.line},
           {"source", lab::source_line(source, row.line)},
           {"access", access_name(row)},
           {"space", space_name(row)},
           {"array", lab::row_target(exercise, findings.reply, i)},
           {"requests", row.requests},
           {"lanes", row.lanes}};
    json metrics{{names.requests, row.requests}};
    if (row.space == MemorySpace::kGlobal) {
      r["sectors"] = row.sectors;
      r["ideal_sectors"] = row.ideal_sectors;
      r["sectors_per_request"] = row.sectors_per_request();
      r["ideal_sectors_per_request"] = row.ideal_sectors_per_request();
      r["lines_touched"] = row.lines_touched;
      r["bytes_requested"] = row.bytes_requested;
      metrics[names.sectors] = row.sectors;
    } else {
      r["wavefronts"] = row.wavefronts;
      r["ideal_wavefronts"] = row.ideal_wavefronts;
      r["bank_conflicts"] = row.bank_conflicts();
      r["worst_conflict_degree"] = row.worst_conflict_degree;
      metrics[names.wavefronts] = row.wavefronts;
      metrics[names.bank_conflicts] = row.bank_conflicts();
    }
    r["metrics"] = metrics;
    if (const lab::LoadBudgetNote* budget = lab::row_budget(findings, i)) {
      r["loads_per_element"] = budget->loads_per_element;
    }
    if (i < findings.notes.size()) r["note"] = findings.notes[i].text;
    rows.push_back(std::move(r));
  }
  json budgets = json::array();
  for (const lab::LoadBudgetNote& budget : findings.budgets) {
    json b{{"array", budget.array},
           {"argument", budget.argument},
           {"loads_per_element", budget.loads_per_element},
           {"blocks", budget.blocks},
           {"within_budget", budget.within},
           {"note", budget.text}};
    if (budget.expected) b["expected_loads_per_element"] = *budget.expected;
    budgets.push_back(std::move(b));
  }
  return {{"scope", lab::memory_scope_label(findings)},
          {"budgets", budgets},
          {"case", findings.case_label},
          {"launch", lab::launch_text(findings.launch)},
          {"recorded_blocks", table.recorded_blocks},
          {"grid_blocks", table.grid_blocks},
          {"extrapolated", table.extrapolated()},
          {"grid_scale", table.grid_scale()},
          {"figures", figures(findings)},
          {"lines_note", findings.reply.lines_note},
          {"dropped_accesses", findings.reply.dropped_accesses},
          {"rows", rows}};
}

}  // namespace tl::cli
