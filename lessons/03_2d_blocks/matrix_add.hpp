#pragma once
// Lesson 3, 2D blocks: C = A + B on a rows × cols matrix of floats, row-major, with a 2D grid of 2D
// blocks mapped onto it in one of two ways. The parameters, their validation, the covering grids,
// the analytic mapping (who computes which element), the memory-access model that explains the
// timing difference, the CPU reference and the check. No CUDA here: the kernels live in
// lessons/03_2d_blocks/kernels/matrix_add.cuh.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/lessons/element_check.hpp"
#include "core/result.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kMatrixAddInfo{
    3, "2d-blocks", "2D blocks", "dim3 grids on a matrix; coalesced against strided indexing",
    "03_2d_blocks"};
inline constexpr std::string_view kMatrixAddId = kMatrixAddInfo.id;
inline constexpr std::string_view kMatrixAddRule = "C = A + B";

enum class MatrixMapping {
  kXToCol,  // col from x, row from y: a warp reads consecutive addresses (coalesced)
  kXToRow,  // row from x, col from y (the article's row = threadIdx.x): addresses `cols` apart
};

// "x-to-col", "x-to-row": the names the CLI, the UI and lesson links use ("x_to_col" and
// "x_to_row" are accepted too).
[[nodiscard]] std::string_view to_string(MatrixMapping mapping);
Result<MatrixMapping> parse_matrix_mapping(std::string_view name);
[[nodiscard]] MatrixMapping other_mapping(MatrixMapping mapping);

struct MatrixAddParams {
  std::uint64_t rows = 1024;
  std::uint64_t cols = 1024;
  LaunchConfig config{{64, 64, 1}, {16, 16, 1}};
  MatrixMapping mapping = MatrixMapping::kXToCol;
  // A z extent above 1 is allowed: several threads then compute the same element, and the trace
  // shows it written more than once.
};

// The smallest grid of `block`s that gives every element a thread under `mapping`: x counts
// columns (x_to_col) or rows (x_to_row), y the other.
[[nodiscard]] LaunchConfig matrix_covering_config(std::uint64_t rows, std::uint64_t cols,
                                                  const Dim3& block, MatrixMapping mapping);

// Read A and B, write C.
[[nodiscard]] inline double matrix_add_bytes(std::uint64_t rows, std::uint64_t cols) {
  return 12.0 * static_cast<double>(rows) * static_cast<double>(cols);
}

// The kernel's row and column are ints, as the article writes them.
inline constexpr std::uint64_t kMatrixAddMaxDim = 0x7FFFFFFFull;

// rows and cols at least 1 and at most kMatrixAddMaxDim; the grid's x and y extents in threads
// (gridDim * blockDim) small enough for the kernel's int row and column; A, B and C within the
// memory available (max_bytes; 0 skips that check). Launch limits are left to CUDA.
Status validate_matrix_add(const MatrixAddParams& params, std::uint64_t max_bytes);

// The thread that computes (row, col) under the params' mapping (its z = 0 copy when the grid or
// block has a z extent), or nobody when the grid does not reach that far.
[[nodiscard]] std::optional<ThreadPosition> matrix_element_owner(const MatrixAddParams& params,
                                                                 std::uint64_t row,
                                                                 std::uint64_t col);
// How many threads compute each covered element: gridDim.z * blockDim.z.
[[nodiscard]] std::uint64_t writes_per_covered_element(const LaunchConfig& config);

// The 32-byte memory sectors one warp's read of A touches: the first warp of block (0, 0), lanes
// past the matrix's edge skipped. 32 floats side by side fill 4 sectors, the least possible; 32
// floats in 32 different rows need 32. This is what the GPU's memory system actually transfers.
[[nodiscard]] std::uint32_t sectors_per_warp_access(const MatrixAddParams& params);

// The plain loop over all rows·cols elements (the spans are the flattened matrices).
void matrix_add_reference(std::span<const float> a, std::span<const float> b, std::span<float> c);
// The same on every hardware thread (0) or `threads`; returns how many were used.
unsigned matrix_add_reference_parallel(std::span<const float> a, std::span<const float> b,
                                       std::span<float> c, unsigned threads = 0);

// Compares c against a + b bit for bit, naming a wrong element by (row, col).
ElementCheck check_matrix_add(std::span<const float> a, std::span<const float> b,
                              std::span<const float> c, std::uint64_t cols);

}  // namespace tl::lessons
