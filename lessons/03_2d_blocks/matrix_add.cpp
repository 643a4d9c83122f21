#include "matrix_add.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "core/parallel_chunks.hpp"

namespace tl::lessons {
namespace {

// The (row, col) a thread at global x and y positions takes under `mapping`.
struct Cell {
  std::uint64_t row;
  std::uint64_t col;
};
Cell cell_of(MatrixMapping mapping, std::uint64_t x, std::uint64_t y) {
  return mapping == MatrixMapping::kXToCol ? Cell{y, x} : Cell{x, y};
}

}  // namespace

std::string_view to_string(MatrixMapping mapping) {
  return mapping == MatrixMapping::kXToCol ? "x-to-col" : "x-to-row";
}

Result<MatrixMapping> parse_matrix_mapping(std::string_view name) {
  // The underscore spellings are those of scripts and links written before values were hyphenated.
  if (name == "x-to-col" || name == "x_to_col") return MatrixMapping::kXToCol;
  if (name == "x-to-row" || name == "x_to_row") return MatrixMapping::kXToRow;
  return invalid_argument("'" + std::string(name) +
                          "' is not a mapping: use x-to-col (threadIdx.x walks along a row, "
                          "coalesced) or x-to-row (threadIdx.x walks down a column, strided)");
}

MatrixMapping other_mapping(MatrixMapping mapping) {
  return mapping == MatrixMapping::kXToCol ? MatrixMapping::kXToRow : MatrixMapping::kXToCol;
}

LaunchConfig matrix_covering_config(std::uint64_t rows, std::uint64_t cols, const Dim3& block,
                                    MatrixMapping mapping) {
  const std::uint64_t along_x = mapping == MatrixMapping::kXToCol ? cols : rows;
  const std::uint64_t along_y = mapping == MatrixMapping::kXToCol ? rows : cols;
  LaunchConfig config;
  config.block = block;
  config.grid = {blocks_to_cover(along_x, block.x), blocks_to_cover(along_y, block.y), 1};
  return config;
}

Status validate_matrix_add(const MatrixAddParams& params, std::uint64_t max_bytes) {
  const std::uint64_t rows = params.rows;
  const std::uint64_t cols = params.cols;
  if (rows == 0 || cols == 0) {
    return invalid_argument("The matrix needs at least one row and one column (rows = " +
                            std::to_string(rows) + ", cols = " + std::to_string(cols) + ").");
  }
  if (rows > kMatrixAddMaxDim || cols > kMatrixAddMaxDim) {
    return invalid_argument(
        "rows and cols must each fit the kernel's int row and column (at most " +
        std::to_string(kMatrixAddMaxDim) + ").");
  }
  // gridDim * blockDim in x and y is the largest column (or row) a thread computes, plus one; past
  // INT_MAX it would wrap around in the kernel's int arithmetic.
  const LaunchConfig& config = params.config;
  const std::uint64_t threads_x = std::uint64_t{config.grid.x} * config.block.x;
  const std::uint64_t threads_y = std::uint64_t{config.grid.y} * config.block.y;
  if (threads_x > kMatrixAddMaxDim || threads_y > kMatrixAddMaxDim) {
    return invalid_argument(config.to_string() + " spans " + std::to_string(threads_x) + " × " +
                            std::to_string(threads_y) +
                            " threads, more than the kernel's int row and column can count (" +
                            std::to_string(kMatrixAddMaxDim) +
                            "): use a grid that fits the matrix.");
  }
  const double bytes = matrix_add_bytes(rows, cols);
  if (max_bytes > 0 && bytes > static_cast<double>(max_bytes)) {
    return Error{ErrorKind::kOutOfMemory,
                 "A " + std::to_string(rows) + " × " + std::to_string(cols) + " matrix needs " +
                     format_bytes(bytes) + " for A, B and C, but only " +
                     format_bytes(static_cast<double>(max_bytes)) + " is available."};
  }
  return Status::ok();
}

std::optional<ThreadPosition> matrix_element_owner(const MatrixAddParams& params, std::uint64_t row,
                                                   std::uint64_t col) {
  if (row >= params.rows || col >= params.cols) return std::nullopt;
  const Dim3& block = params.config.block;
  const Dim3& grid = params.config.grid;
  // Invert cell_of(): x is the column under x_to_col, the row under x_to_row.
  const std::uint64_t x = params.mapping == MatrixMapping::kXToCol ? col : row;
  const std::uint64_t y = params.mapping == MatrixMapping::kXToCol ? row : col;
  if (block.x == 0 || block.y == 0) return std::nullopt;
  if (x / block.x >= grid.x || y / block.y >= grid.y) return std::nullopt;
  return ThreadPosition{
      {static_cast<std::uint32_t>(x / block.x), static_cast<std::uint32_t>(y / block.y), 0},
      {static_cast<std::uint32_t>(x % block.x), static_cast<std::uint32_t>(y % block.y), 0}};
}

std::uint64_t writes_per_covered_element(const LaunchConfig& config) {
  return std::uint64_t{config.grid.z} * config.block.z;
}

std::uint32_t sectors_per_warp_access(const MatrixAddParams& params) {
  constexpr std::uint64_t kWarpSize = 32;
  constexpr std::uint64_t kSectorBytes = 32;
  const Dim3& block = params.config.block;
  const std::uint64_t lanes = std::min<std::uint64_t>(kWarpSize, block.volume());
  std::set<std::uint64_t> sectors;
  for (std::uint64_t lane = 0; lane < lanes; ++lane) {
    // Block (0, 0): threadIdx is the global x and y.
    const Dim3 thread = block.unlinear(lane);
    const Cell cell = cell_of(params.mapping, thread.x, thread.y);
    if (cell.row >= params.rows || cell.col >= params.cols) continue;
    const std::uint64_t address = (cell.row * params.cols + cell.col) * sizeof(float);
    sectors.insert(address / kSectorBytes);
  }
  return static_cast<std::uint32_t>(sectors.size());
}

void matrix_add_reference(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}

unsigned matrix_add_reference_parallel(std::span<const float> a, std::span<const float> b,
                                       std::span<float> c, unsigned threads) {
  return for_each_chunk(c.size(), threads, std::size_t{1} << 16,
                        [&](std::size_t begin, std::size_t end) {
                          for (std::size_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
                        });
}

ElementCheck check_matrix_add(std::span<const float> a, std::span<const float> b,
                              std::span<const float> c, std::uint64_t cols) {
  std::vector<float> expected(a.size());
  matrix_add_reference(a, b, expected);
  return compare_elements(expected, c, kMatrixAddRule, cols);
}

}  // namespace tl::lessons
