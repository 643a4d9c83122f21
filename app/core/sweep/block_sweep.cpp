#include "core/sweep/block_sweep.hpp"

#include <algorithm>

namespace tl {

std::vector<std::uint32_t> block_sweep_threads(std::uint32_t max_threads) {
  static constexpr std::uint32_t kCounts[] = {1,   2,   4,   8,   16,  32,  64,  96,
                                              128, 192, 256, 384, 512, 768, 1024};
  std::vector<std::uint32_t> counts;
  for (std::uint32_t count : kCounts) {
    if (count <= max_threads) counts.push_back(count);
  }
  return counts;
}

std::vector<Dim3> block_sweep_1d(std::uint32_t max_threads) {
  std::vector<Dim3> blocks;
  for (std::uint32_t count : block_sweep_threads(max_threads)) blocks.push_back({count, 1, 1});
  return blocks;
}

std::vector<Dim3> block_sweep_2d(std::uint32_t max_threads, std::uint32_t max_x,
                                 std::uint32_t max_y) {
  std::vector<Dim3> blocks;
  const std::uint32_t widest = std::max(max_x, 1u);
  for (std::uint32_t count : block_sweep_threads(max_threads)) {
    const std::uint32_t x = std::min(count, widest);
    if (count % x != 0 || count / x > max_y) continue;
    blocks.push_back({x, count / x, 1});
  }
  return blocks;
}

}  // namespace tl
