#include "series_style.hpp"

#include <iterator>

#include "core/plot/series_marks.hpp"

namespace tl::ui {
namespace {

// Distinct on the dark plot background, and from each other for colour-blind readers: the CPU's
// warm hues (Okabe and Ito's vermillion, orange, yellow), the device's cool ones (their sky blue,
// bluish green and blue, lightened for the dark background, then violet, teal, mint, lilac and
// slate), so a sweep of eight kernels (the matrix multiply's ladder) repeats no hue. Marker shapes
// and dashes (core/plot/series_marks.hpp) tell the series apart without their hues: the twins
// (all threads, end to end) are dashed.
constexpr std::uint32_t kWarm[] = {plot::rgba(0xE8, 0x6A, 0x2C), plot::rgba(0xF0, 0xA8, 0x30),
                                   plot::rgba(0xF0, 0xE4, 0x42)};
constexpr std::uint32_t kCool[] = {plot::rgba(0x56, 0xB4, 0xE9), plot::rgba(0x00, 0xB0, 0x80),
                                   plot::rgba(0x5A, 0x8C, 0xFF), plot::rgba(0xB3, 0x8C, 0xFF),
                                   plot::rgba(0x44, 0xD8, 0xD0), plot::rgba(0x9C, 0xE0, 0xA8),
                                   plot::rgba(0xE0, 0xA8, 0xF0), plot::rgba(0x9A, 0xA6, 0xB8)};

}  // namespace

std::uint32_t device_series_color(std::size_t index) {
  return kCool[index % std::size(kCool)];
}

void style_timing_series(std::vector<plot::PlotSeries>& series) {
  std::size_t warm = 0;
  std::size_t cool = 0;
  std::size_t index = 0;  // among the current series: their marker and dash (core/plot)
  for (plot::PlotSeries& s : series) {
    if (s.faint) continue;
    const TimingRole role = s.key.role;
    s.color = is_cpu(role) ? kWarm[warm++ % std::size(kWarm)] : kCool[cool++ % std::size(kCool)];
    const bool twin = role == TimingRole::kCpuAllThreads || is_end_to_end(role);
    const plot::SeriesMark mark = plot::series_mark(index++, twin);
    s.dash = mark.dash;
    s.marker = mark.marker;
  }
}

}  // namespace tl::ui
