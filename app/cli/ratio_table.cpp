#include "ratio_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/format.hpp"

namespace tl::cli {
namespace {

// Significant digits, but large values in full rather than as 5.138e+04.
std::string number(double value, int digits) {
  char text[64];
  if (std::fabs(value) >= 1e4 && std::fabs(value) < 1e15) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
  }
  return text;
}

// A speed-up or slow-down with three decimals, trailing zeros kept: 1.496 must not read as 1.5
// next to a target of 1.5.
std::string times(double factor) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", factor);
  return text;
}

// Shares as they are (0.934 of the copy); time ratios as a speed-up or a slow-down.
std::string ratio_text(const RatioRow& row) {
  if (row.reference <= 0 || row.ratio <= 0) return "n/a";
  if (row.unit != "ms") return number(row.ratio, 3);
  if (row.ratio >= 1) return times(row.ratio) + " faster";
  return times(1.0 / row.ratio) + " slower";
}

bool any_target(const std::vector<RatioRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const RatioRow& r) { return r.has_target(); });
}

// "met (target ≥ 0.9)" or "NOT met (target ≥ 0.9)"; for time ratios the target is a speed-up
// ("≥ 1.5x faster") or the slow-down allowed ("≤ 1.15x slower").
std::string target_text(const RatioRow& row) {
  if (!row.has_target()) return "";
  std::string goal = "≥ " + number(row.target, 3);
  if (row.unit == "ms") {
    goal = row.target >= 1 ? "≥ " + number(row.target, 3) + "x faster"
                           : "≤ " + number(1.0 / row.target, 3) + "x slower";
  }
  if (row.reference <= 0) return "not measured (target " + goal + ")";
  return (row.target_met() ? "met (target " : "NOT met (target ") + goal + ")";
}

}  // namespace

void print_ratio_table(std::ostream& out, const std::string& device,
                       const std::vector<RatioRow>& rows) {
  out << "device: " << device << '\n';
  std::size_t what_width = 4;
  std::size_t against_width = 7;
  for (const RatioRow& row : rows) {
    what_width = std::max(what_width, display_width(row.what));
    against_width = std::max(against_width, display_width(row.against));
  }
  auto pad = [](const std::string& text, std::size_t width) {
    const std::size_t shown = display_width(text);
    return text + std::string(width > shown ? width - shown : 0, ' ');
  };
  const bool targets = any_target(rows);
  out << pad("what", what_width) << "  " << pad("value", 18) << pad("against", against_width)
      << "  " << pad("reference", 18) << (targets ? pad("ratio", 16) + "target" : "ratio") << '\n';
  for (const RatioRow& row : rows) {
    const std::string value = row.value > 0 ? number(row.value, 4) + " " + row.unit : "-";
    const std::string reference =
        row.reference > 0 ? number(row.reference, 4) + " " + row.unit : "-";
    out << pad(row.what, what_width) << "  " << pad(value, 18) << pad(row.against, against_width)
        << "  " << pad(reference, 18) << (targets ? pad(ratio_text(row), 16) : ratio_text(row));
    if (row.has_target()) out << target_text(row);
    if (row.reference <= 0 && !row.absent.empty()) out << " (" << row.absent << ")";
    out << '\n';
  }
}

void print_ratio_csv(std::ostream& out, const std::vector<RatioRow>& rows) {
  const bool targets = any_target(rows);
  out << "what,value,unit,against,reference,ratio" << (targets ? ",target,met" : "") << '\n';
  for (const RatioRow& row : rows) {
    out << csv_field(row.what) << ',' << number(row.value, 17) << ',' << row.unit << ','
        << csv_field(row.against) << ',' << (row.reference > 0 ? number(row.reference, 17) : "")
        << ',' << (row.reference > 0 ? number(row.ratio, 17) : "");
    if (targets) {
      out << ',' << (row.has_target() ? number(row.target, 17) : "") << ','
          << (row.has_target() && row.reference > 0 ? (row.target_met() ? "yes" : "no") : "");
    }
    out << '\n';
  }
}

void print_ratio_json(std::ostream& out, const std::string& device,
                      const std::vector<RatioRow>& rows) {
  nlohmann::json list = nlohmann::json::array();
  for (const RatioRow& row : rows) {
    nlohmann::json item{{"what", row.what},       {"value", row.value},   {"unit", row.unit},
                        {"against", row.against}, {"reference", nullptr}, {"ratio", nullptr}};
    if (row.reference > 0) {
      item["reference"] = row.reference;
      item["ratio"] = row.ratio;
    } else {
      item["absent"] = row.absent;
    }
    if (row.has_target()) {
      item["target"] = row.target;
      item["met"] = row.reference > 0 ? nlohmann::json(row.target_met()) : nlohmann::json(nullptr);
    }
    list.push_back(std::move(item));
  }
  out << nlohmann::json{{"device", device}, {"ratios", list}}.dump(2) << '\n';
}

}  // namespace tl::cli
