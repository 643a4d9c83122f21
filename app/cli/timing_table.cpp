#include "timing_table.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "compute/lessons/own_ceilings.hpp"
#include "core/format.hpp"
#include "core/plot/tick_format.hpp"

namespace tl::cli {
namespace {

std::string ms(const TimingStats& t) {
  if (t.empty()) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4f", t.median_ms);
  return buffer;
}

// The runs' range, and "noisy" where it is too wide to read a difference (core/stats.hpp).
std::string range(const TimingStats& t) {
  if (t.empty()) return "";
  return "(" + format_milliseconds(t.min_ms) + " – " + format_milliseconds(t.max_ms) + ")" +
         (spread_too_wide(t) ? " noisy" : "");
}

// FLOP/s for arithmetic-heavy rows, bytes/s for memory-bound ones: whichever the lesson says
// matters. Same format as the device rows' rates (three digits, the unit that fits), so a CPU row
// and a GPU row read alike.
std::string rate(const compute::TimingRow& row) {
  if (row.stats.empty() || row.stats.median_ms <= 0) return "";
  if (row.flops > row.bytes && row.flops > 0) {
    return plot::format_value(gigaflops(row.flops, row.stats.median_ms) * 1e9,
                              plot::TickFormat::kFlopRate, 3);
  }
  if (row.bytes > 0) {
    return plot::format_value(gigabytes_per_second(row.bytes, row.stats.median_ms) * 1e9,
                              plot::TickFormat::kByteRate, 3);
  }
  return "";
}

nlohmann::json stats_json(const TimingStats& t) {
  if (t.empty()) return nullptr;
  return {{"median_ms", t.median_ms},
          {"min_ms", t.min_ms},
          {"max_ms", t.max_ms},
          {"repeats", t.repeats}};
}

// Column names for CSV: "GPU kernel" → "gpu_kernel".
std::string column_name(const std::string& name) {
  std::string out;
  for (char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

void print_run_report(std::ostream& out, const std::string& lesson,
                      const compute::TracedLaunch& what, const compute::LessonReport& report,
                      const std::string& backend, const DeviceCeilings* ceilings,
                      const compute::Lesson* lesson_model) {
  out << lesson << what.config.to_string() << "  " << format_count(what.shape.elements())
      << " elements";
  if (what.shape.rows > 1) out << " (" << what.shape.rows << " × " << what.shape.cols << ")";
  out << "  on " << backend << '\n';
  // Names hold arrows and other multi-byte characters: pad by what the terminal shows.
  std::size_t name_width = 0;
  for (const compute::TimingRow& row : report.rows)
    name_width = std::max(name_width, display_width(row.name));
  for (const compute::TimingRow& row : report.rows) {
    if (row.stats.empty()) continue;
    char buffer[200];
    // Each row against its own ceiling: a tensor rung against cuBLAS at its own precision in
    // this run, not against FP32 SGEMM.
    const auto own = lesson_model != nullptr
                         ? compute::share_of_own_ceiling(*lesson_model, report, row, ceilings)
                         : std::nullopt;
    std::string rates = row.on_device && ceilings != nullptr && !(own && own->same_run)
                            ? describe_rates(rates_against_ceilings(row.bytes, row.flops,
                                                                    row.stats.median_ms, ceilings))
                            : rate(row);
    if (own && own->same_run) {
      char text[48];
      std::snprintf(text, sizeof text, " = %.0f %% of ", own->share * 100.0);
      rates += text + own->ceiling + " (this run)";
    }
    std::snprintf(buffer, sizeof buffer, " %12s  %-28s %s\n",
                  format_milliseconds(row.stats.median_ms).c_str(), range(row.stats).c_str(),
                  rates.c_str());
    out << "  " << row.name << std::string(name_width - display_width(row.name), ' ') << buffer;
  }
  for (const std::string& note : report.notes) out << "  note: " << note << '\n';
  int repeats = 0;
  for (const auto& row : report.rows) repeats = std::max(repeats, row.stats.repeats);
  out << "  median of " << repeats << " runs after warm-up, (min – max)\n";
  const bool noisy =
      std::any_of(report.rows.begin(), report.rows.end(),
                  [](const compute::TimingRow& row) { return spread_too_wide(row.stats); });
  if (noisy) {
    out << "  noisy: the slowest run took over 1.5× as long as the fastest, too wide a spread to "
           "read a difference from; run again on a quieter machine\n";
  }
  if (ceilings != nullptr) {
    out << "  ceilings measured on this device at " << ceilings->measured_at << ": device copy "
        << plot::format_value(ceilings->copy_bytes_per_second, plot::TickFormat::kByteRate, 3);
    if (ceilings->sgemm_flops_per_second > 0) {
      out << ", cuBLAS SGEMM "
          << plot::format_value(ceilings->sgemm_flops_per_second, plot::TickFormat::kFlopRate, 3);
    }
    out << '\n';
  }
}

void print_bench_table(std::ostream& out, const std::string& lesson, const std::string& size_label,
                       const std::vector<BenchRow>& rows, const std::string& backend) {
  out << lesson << ", " << backend << "; median ms of each measurement; size = " << size_label
      << '\n';
  if (rows.empty()) return;
  char cell[96];
  std::snprintf(cell, sizeof cell, "%12s %20s", "size", "launch");
  out << cell;
  // Each column as wide as its name, so the table reads without a legend.
  std::vector<int> widths;
  for (const auto& timing : rows.front().report.rows) {
    const std::string name = column_name(timing.name);
    widths.push_back(std::max(10, static_cast<int>(name.size())));
    std::snprintf(cell, sizeof cell, " %*s", widths.back(), name.c_str());
    out << cell;
  }
  out << '\n';
  for (const BenchRow& row : rows) {
    std::snprintf(cell, sizeof cell, "%12s %20s", format_power_of_two(row.size).c_str(),
                  row.config.to_string().c_str());
    out << cell;
    for (std::size_t i = 0; i < row.report.rows.size(); ++i) {
      const int width = i < widths.size() ? widths[i] : 10;
      std::snprintf(cell, sizeof cell, " %*s", width, ms(row.report.rows[i].stats).c_str());
      out << cell;
    }
    out << '\n';
  }
}

void print_bench_csv(std::ostream& out, const std::string& lesson,
                     const std::vector<BenchRow>& rows, const std::string& backend) {
  out << "lesson,backend,size,grid,block";
  if (!rows.empty()) {
    for (const auto& timing : rows.front().report.rows) {
      const std::string c = column_name(timing.name);
      out << ',' << c << "_ms," << c << "_min_ms," << c << "_max_ms";
    }
  }
  out << '\n';
  for (const BenchRow& row : rows) {
    out << lesson << ',' << backend << ',' << row.size << ",\"" << to_string(row.config.grid)
        << "\",\"" << to_string(row.config.block) << '"';
    for (const auto& timing : row.report.rows) {
      out << ',' << ms(timing.stats) << ',' << timing.stats.min_ms << ',' << timing.stats.max_ms;
    }
    out << '\n';
  }
}

void print_bench_json(std::ostream& out, const std::string& lesson,
                      const std::vector<BenchRow>& rows, const std::string& backend,
                      const std::string& device_name) {
  nlohmann::json points = nlohmann::json::array();
  for (const BenchRow& row : rows) {
    nlohmann::json timings = nlohmann::json::array();
    for (const auto& timing : row.report.rows) {
      nlohmann::json t = {{"name", timing.name}, {"stats", stats_json(timing.stats)}};
      if (timing.bytes > 0 && !timing.stats.empty()) {
        t["gbps"] = gigabytes_per_second(timing.bytes, timing.stats.median_ms);
      }
      if (timing.flops > 0 && !timing.stats.empty())
        t["gflops"] = gigaflops(timing.flops, timing.stats.median_ms);
      // The roofline's x: floating-point operations per byte the lesson counts for the row.
      if (timing.flops > 0 && timing.bytes > 0) t["flop_per_byte"] = timing.flops / timing.bytes;
      timings.push_back(t);
    }
    nlohmann::json point = {
        {"size", row.size}, {"launch", row.config.to_string()}, {"timings", timings}};
    if (row.report.check) point["check_passed"] = row.report.check->passed;
    points.push_back(point);
  }
  const nlohmann::json doc = {
      {"lesson", lesson}, {"backend", backend}, {"device", device_name}, {"points", points}};
  out << doc.dump(2) << '\n';
}

}  // namespace tl::cli
