#include "matmul_tiles.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "core/parse.hpp"

namespace tl::lessons {
namespace {

Status check_element(const MatmulSize& size, std::uint32_t row, std::uint32_t col) {
  if (row >= size.m || col >= size.n) {
    return invalid_argument("element (row " + std::to_string(row) + ", col " + std::to_string(col) +
                            ") is outside C, which has " + std::to_string(size.m) + " rows and " +
                            std::to_string(size.n) + " columns.");
  }
  return Status::ok();
}

// The tile of `tile` indices starting at `begin`, clipped to [0, limit).
IndexRange clipped_tile(std::uint32_t begin, std::uint32_t tile, std::uint32_t limit) {
  return {begin,
          static_cast<std::uint32_t>(std::min<std::uint64_t>(limit, std::uint64_t{begin} + tile))};
}

}  // namespace

Result<NaiveReads> naive_reads(const MatmulSize& size, std::uint32_t row, std::uint32_t col) {
  TL_RETURN_IF_ERROR(check_element(size, row, col));
  return NaiveReads{row, {0, size.k}, {0, size.k}, col};
}

Result<std::vector<TilePhase>> tiled_phases(const MatmulSize& size, std::uint32_t row,
                                            std::uint32_t col, std::uint32_t tile) {
  TL_RETURN_IF_ERROR(check_element(size, row, col));
  TL_RETURN_IF_ERROR(validate_matmul_variant({MatmulKernel::kTiled, tile, {}}));
  // The block and the thread within it, as the kernel derives them from blockIdx and threadIdx.
  const std::uint32_t block_row = row / tile * tile;
  const std::uint32_t block_col = col / tile * tile;
  const std::uint32_t thread_y = row % tile;
  const std::uint32_t thread_x = col % tile;
  const IndexRange rows = clipped_tile(block_row, tile, size.m);
  const IndexRange cols = clipped_tile(block_col, tile, size.n);

  const std::uint32_t phases = (size.k + tile - 1) / tile;
  std::vector<TilePhase> result;
  result.reserve(phases);
  for (std::uint32_t p = 0; p < phases; ++p) {
    TilePhase phase;
    phase.phase = p;
    phase.k_range = clipped_tile(p * tile, tile, size.k);
    phase.a_rows = rows;
    phase.a_cols = phase.k_range;
    phase.b_rows = phase.k_range;
    phase.b_cols = cols;
    // a_tile[ty][tx] = A[row][p * TILE + tx]; b_tile[ty][tx] = B[p * TILE + ty][col]. The row and
    // column are inside the matrix (checked above); only the K index can fall off the end.
    const std::uint32_t a_col = p * tile + thread_x;
    const std::uint32_t b_row = p * tile + thread_y;
    if (a_col < size.k) phase.a_loaded_by_thread = MatrixCell{row, a_col};
    if (b_row < size.k) phase.b_loaded_by_thread = MatrixCell{b_row, col};
    result.push_back(phase);
  }
  return result;
}

namespace {

Result<std::uint32_t> read_size(const ParamValues& values, const std::string& name) {
  auto it = values.find(name);
  if (it == values.end()) return invalid_argument("no '" + name + "' among the lesson's values");
  auto parsed = parse_count(it->second);
  if (!parsed) return invalid_argument(name + ": " + parsed.message());
  if (*parsed == 0 || *parsed > std::numeric_limits<std::uint32_t>::max()) {
    return invalid_argument(name + ": out of range");
  }
  return static_cast<std::uint32_t>(*parsed);
}

}  // namespace

Result<MatmulElementReads> matmul_element_reads(const ParamValues& values, std::uint32_t row,
                                                std::uint32_t col) {
  MatmulElementReads reads;
  for (auto [name, field] : {std::pair{"m", &reads.size.m}, std::pair{"n", &reads.size.n},
                             std::pair{"k", &reads.size.k}}) {
    auto value = read_size(values, name);
    if (!value) return value.error();
    *field = *value;
  }
  reads.element = {row, col};
  auto naive = naive_reads(reads.size, row, col);
  if (!naive) return naive.error();
  reads.naive = *naive;
  auto kernel = values.find("kernel");
  reads.tiled = kernel != values.end() && kernel->second == "tiled";
  if (reads.tiled) {
    auto tile = read_size(values, "tile");
    if (!tile) return tile.error();
    reads.tile = *tile;
    auto phases = tiled_phases(reads.size, row, col, reads.tile);
    if (!phases) return phases.error();
    reads.phases = std::move(*phases);
  }
  return reads;
}

}  // namespace tl::lessons
