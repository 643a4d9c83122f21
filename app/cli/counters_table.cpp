#include "counters_table.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/format.hpp"

namespace tl::cli {
namespace {

// Names hold arrows: pad by code points, as the terminal shows them.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  }));
}

}  // namespace

void print_counters(std::ostream& out, std::span<const CountedKernel> kernels) {
  out << "  hardware counters, " << kCountersAreNotTimings << ":\n";
  std::size_t name_width = std::string("kernel").size();
  for (const CountedKernel& k : kernels) name_width = std::max(name_width, display_width(k.name));
  char line[256];
  std::snprintf(line, sizeof line, " %11s %11s %9s %11s %7s %9s %6s\n", "DRAM read", "DRAM write",
                "× least", "L2 served", "L2 hit", "occupancy", "passes");
  out << "  kernel" << std::string(name_width - 6, ' ') << line;
  for (const CountedKernel& k : kernels) {
    const auto over = dram_traffic_over_ideal(k);
    char ratio[32] = "-";
    if (over) std::snprintf(ratio, sizeof ratio, "%.2f×", *over);
    std::snprintf(line, sizeof line, " %11s %11s %9s %11s %6.1f%% %8.1f%% %6d\n",
                  format_bytes(k.counters.dram_bytes_read).c_str(),
                  format_bytes(k.counters.dram_bytes_written).c_str(), ratio,
                  format_bytes(k.counters.l2_bytes).c_str(), k.counters.l2_hit_rate * 100.0,
                  k.counters.achieved_occupancy * 100.0, k.counters.passes);
    out << "  " << k.name << std::string(name_width - display_width(k.name), ' ') << line;
  }
  out << "  × least: DRAM bytes read and written over the least the work needs (each input read "
         "once, each output written once)\n";
}

}  // namespace tl::cli
