#include "core/grid_diagram.hpp"

#include <algorithm>

namespace tl {
namespace {

// Threads along one axis of the grid that land inside an extent of `size`: the grid's threads on
// that axis are 0 .. blocks·block - 1.
std::uint64_t covered_along(std::uint64_t grid_threads, std::uint64_t size) {
  return std::min(grid_threads, size);
}

bool thread_is_idle(const LaunchConfig& config, const ThreadCoverage& coverage, const Dim3& block,
                    const Dim3& thread) {
  const Dim3& b = config.block;
  if (coverage.kind == ThreadCoverage::Kind::kLinear) {
    const std::uint64_t block_linear = config.grid.linear(block.x, block.y, block.z);
    const std::uint64_t global = block_linear * b.volume() + b.linear(thread.x, thread.y, thread.z);
    return global >= coverage.elements;
  }
  // A matrix lesson's threads beyond the first z layer repeat its elements: they are not idle, but
  // the lessons launch z = 1 anyway.
  const std::uint64_t x = std::uint64_t{block.x} * b.x + thread.x;
  const std::uint64_t y = std::uint64_t{block.y} * b.y + thread.y;
  const std::uint64_t col = coverage.x_picks_row ? y : x;
  const std::uint64_t row = coverage.x_picks_row ? x : y;
  return row >= coverage.rows || col >= coverage.cols;
}

std::uint64_t count_idle(const LaunchConfig& config, const ThreadCoverage& coverage,
                         std::uint64_t threads) {
  if (coverage.kind == ThreadCoverage::Kind::kLinear) {
    return threads > coverage.elements ? threads - coverage.elements : 0;
  }
  const std::uint64_t along_x = std::uint64_t{config.grid.x} * config.block.x;
  const std::uint64_t along_y = std::uint64_t{config.grid.y} * config.block.y;
  const std::uint64_t layers = std::uint64_t{config.grid.z} * config.block.z;
  const std::uint64_t x_extent = coverage.x_picks_row ? coverage.rows : coverage.cols;
  const std::uint64_t y_extent = coverage.x_picks_row ? coverage.cols : coverage.rows;
  const std::uint64_t busy =
      covered_along(along_x, x_extent) * covered_along(along_y, y_extent) * layers;
  return threads - busy;
}

DiagramBlock describe_block(const LaunchConfig& config,
                            const std::optional<ThreadCoverage>& coverage,
                            std::uint64_t block_linear) {
  DiagramBlock out;
  out.index = config.grid.unlinear(block_linear);
  const std::uint64_t per_block = config.block.volume();
  out.idle.assign(per_block, 0);
  if (!coverage) return out;
  for (std::uint64_t t = 0; t < per_block; ++t) {
    if (thread_is_idle(config, *coverage, out.index, config.block.unlinear(t))) {
      out.idle[t] = 1;
      ++out.idle_threads;
    }
  }
  return out;
}

}  // namespace

GridDiagram make_grid_diagram(const LaunchConfig& config,
                              const std::optional<ThreadCoverage>& coverage,
                              std::uint32_t warp_size, std::uint32_t max_blocks,
                              std::uint32_t max_threads_per_block) {
  GridDiagram diagram;
  diagram.config = config;
  diagram.warp_size = std::max(warp_size, 1u);
  diagram.blocks = config.grid.volume();
  const std::uint64_t per_block = config.block.volume();
  diagram.threads = diagram.blocks * per_block;
  diagram.warps_per_block =
      static_cast<std::uint32_t>((per_block + diagram.warp_size - 1) / diagram.warp_size);
  const std::uint64_t remainder = per_block % diagram.warp_size;
  diagram.last_warp_threads =
      static_cast<std::uint32_t>(remainder == 0 ? diagram.warp_size : remainder);
  if (per_block == 0 || diagram.blocks == 0) return diagram;
  if (coverage) diagram.idle_threads = count_idle(config, *coverage, diagram.threads);
  if (per_block > max_threads_per_block) return diagram;

  const std::uint64_t keep = std::max<std::uint32_t>(max_blocks, 2);
  if (diagram.blocks <= keep) {
    for (std::uint64_t b = 0; b < diagram.blocks; ++b) {
      diagram.shown.push_back(describe_block(config, coverage, b));
    }
  } else {
    for (std::uint64_t b = 0; b + 1 < keep; ++b) {
      diagram.shown.push_back(describe_block(config, coverage, b));
    }
    diagram.shown.push_back(describe_block(config, coverage, diagram.blocks - 1));
    diagram.gap_before_last = diagram.blocks > keep;
  }
  return diagram;
}

}  // namespace tl
