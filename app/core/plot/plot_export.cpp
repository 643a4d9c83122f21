#include "core/plot/plot_export.hpp"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/format.hpp"
#include "core/plot/series_marks.hpp"
#include "core/user_files.hpp"

namespace tl::plot {
namespace {

// Shortest round-trip representation; "nan"/"inf" are what spreadsheets and pandas read back.
std::string csv_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::array<char, 32> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (ec != std::errc{}) return "nan";
  return std::string(buffer.data(), end);
}

nlohmann::json json_number(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

std::string hex_color(std::uint32_t color) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "#%08x", static_cast<unsigned>(color));
  return buffer;
}

// Checked at every step, and atomic: an export to a full disk fails instead of leaving an empty
// file.
Status write_file(const std::filesystem::path& path, const std::string& text) {
  return write_output_file(path, text);
}

}  // namespace

std::string series_to_csv(std::span<const PlotSeries> series) {
  // role and variant say what a series measures (core/timing/timing_key.hpp): scripts reading the
  // export pick series by them, not by the display name.
  std::string csv = "series,role,variant,x,y,y_min,y_max,bytes,flops\n";
  for (const PlotSeries& s : series) {
    const std::string name = csv_field(s.name) + ',' + std::string(to_string(s.key.role)) + ',' +
                             csv_field(s.key.variant);
    for (const PlotPoint& p : s.points) {
      csv += name + ',' + csv_number(p.x) + ',' + csv_number(p.y) + ',' + csv_number(p.y_min) +
             ',' + csv_number(p.y_max) + ',' + csv_number(p.bytes) + ',' + csv_number(p.flops) +
             '\n';
    }
  }
  return csv;
}

std::string series_to_json(std::span<const PlotSeries> series,
                           std::span<const PlotMarker> markers) {
  nlohmann::json document;
  document["series"] = nlohmann::json::array();
  for (const PlotSeries& s : series) {
    nlohmann::json points = nlohmann::json::array();
    for (const PlotPoint& p : s.points) {
      points.push_back({{"x", json_number(p.x)},
                        {"y", json_number(p.y)},
                        {"y_min", json_number(p.y_min)},
                        {"y_max", json_number(p.y_max)},
                        {"bytes", json_number(p.bytes)},
                        {"flops", json_number(p.flops)}});
    }
    document["series"].push_back({{"name", s.name},
                                  {"role", to_string(s.key.role)},
                                  {"variant", s.key.variant},
                                  {"color", hex_color(s.color)},
                                  {"visible", s.visible},
                                  {"faint", s.faint},
                                  {"dashed", s.dash != LineDash::kSolid},
                                  {"dash", to_string(s.dash)},
                                  {"marker", to_string(s.marker)},
                                  {"points", std::move(points)}});
  }
  document["markers"] = nlohmann::json::array();
  for (const PlotMarker& m : markers) {
    document["markers"].push_back({{"x", json_number(m.x)}, {"label", m.label}});
  }
  // Replace invalid UTF-8 rather than throw: a series name is user text, and export must not crash.
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

Status export_csv(const std::filesystem::path& path, std::span<const PlotSeries> series) {
  return write_file(path, series_to_csv(series));
}

Status export_json(const std::filesystem::path& path, std::span<const PlotSeries> series,
                   std::span<const PlotMarker> markers) {
  return write_file(path, series_to_json(series, markers));
}

}  // namespace tl::plot
