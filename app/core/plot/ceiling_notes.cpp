#include "core/plot/ceiling_notes.hpp"

#include <cmath>
#include <limits>

namespace tl::plot {

std::vector<std::string> notes_above_guides(std::span<const PlotSeries> series,
                                            std::span<const PlotGuide> guides,
                                            TickFormat x_format) {
  std::vector<std::string> notes;
  for (const PlotGuide& guide : guides) {
    if (!std::isfinite(guide.y) || guide.y <= 0) continue;
    std::string found;
    for (const PlotSeries& s : series) {
      if (s.faint) continue;
      double first = std::numeric_limits<double>::infinity();
      double last = -std::numeric_limits<double>::infinity();
      for (const PlotPoint& p : s.points) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.y <= guide.y) continue;
        first = std::min(first, p.x);
        last = std::max(last, p.x);
      }
      if (!std::isfinite(first)) continue;
      if (!found.empty()) found += "; ";
      found += s.name + " (at " + format_tick(first, x_format);
      if (last > first) found += " to " + format_tick(last, x_format);
      found += ")";
    }
    if (found.empty()) continue;
    const std::string& name = guide.name.empty() ? guide.label : guide.name;
    std::string note = "Above the " + name + " line: " + found + ".";
    if (!guide.above_reason.empty()) note += " " + guide.above_reason;
    notes.push_back(std::move(note));
  }
  return notes;
}

}  // namespace tl::plot
