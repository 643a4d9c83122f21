#include "series_style.hpp"

#include <iterator>

namespace tl::ui {
namespace {

// Distinct on the dark plot background.
constexpr std::uint32_t kWarm[] = {plot::rgba(0xE0, 0x8A, 0x3C), plot::rgba(0xF2, 0xC1, 0x4E),
                                   plot::rgba(0xEE, 0x6E, 0x85)};
constexpr std::uint32_t kCool[] = {plot::rgba(0x4E, 0xB3, 0xD3), plot::rgba(0x7B, 0xD1, 0x8A),
                                   plot::rgba(0xC3, 0x8B, 0xE8), plot::rgba(0x5F, 0xD4, 0xC8),
                                   plot::rgba(0x9A, 0xA6, 0xB8)};

}  // namespace

void style_timing_series(std::vector<plot::PlotSeries>& series) {
  std::size_t warm = 0;
  std::size_t cool = 0;
  for (plot::PlotSeries& s : series) {
    if (s.faint) continue;
    const TimingRole role = s.key.role;
    s.color = is_cpu(role) ? kWarm[warm++ % std::size(kWarm)] : kCool[cool++ % std::size(kCool)];
    s.dashed = role == TimingRole::kCpuAllThreads || is_end_to_end(role);
  }
}

}  // namespace tl::ui
