#pragma once
// What the thread computing one element of C reads, for the lesson's picture: the naive kernel's
// whole row of A and column of B, or the tiled kernel's tiles of A and B, phase by phase. Pure
// functions of the sizes, so the view draws exactly what lessons/04_matmul/kernels/matmul.cuh does.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/lessons/lesson_params.hpp"
#include "core/result.hpp"
#include "lessons/04_matmul/matmul.hpp"

namespace tl::lessons {

// Indices [begin, end).
struct IndexRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  [[nodiscard]] std::uint32_t size() const { return end - begin; }
  friend bool operator==(const IndexRange&, const IndexRange&) = default;
};

struct MatrixCell {
  std::uint32_t row = 0;
  std::uint32_t col = 0;
  friend bool operator==(const MatrixCell&, const MatrixCell&) = default;
};

// matmul_naive: the thread for C(row, col) reads all of row `row` of A and column `col` of B.
struct NaiveReads {
  std::uint32_t a_row = 0;
  IndexRange a_cols;  // 0..K
  IndexRange b_rows;  // 0..K
  std::uint32_t b_col = 0;
};

// One phase of matmul_tiled<TILE> for the block that computes C(row, col). The tile ranges are
// clipped to the matrices: at the edges the kernel fills the rest of each shared tile with zeros.
struct TilePhase {
  std::uint32_t phase = 0;
  IndexRange k_range;  // the K indices this phase covers
  IndexRange a_rows;   // the tile of A: these rows (the block's rows of C) ...
  IndexRange a_cols;   // ... and these columns (= k_range)
  IndexRange b_rows;   // the tile of B: these rows (= k_range) ...
  IndexRange b_cols;   // ... and these columns (the block's columns of C)
  // The one element of each tile that the picked thread itself copies into shared memory, or none
  // when its position falls outside the matrix (it stores a zero instead).
  std::optional<MatrixCell> a_loaded_by_thread;
  std::optional<MatrixCell> b_loaded_by_thread;
};

// Errors when (row, col) is outside C.
Result<NaiveReads> naive_reads(const MatmulSize& size, std::uint32_t row, std::uint32_t col);

// ceil(K / tile) phases, in order. Errors when (row, col) is outside C or the tile is not 8, 16 or
// 32.
Result<std::vector<TilePhase>> tiled_phases(const MatmulSize& size, std::uint32_t row,
                                            std::uint32_t col, std::uint32_t tile);

// Everything the "element reads" view shows for the picked element of C, from the lesson's
// parameter values (m, n, k, kernel, tile as text): the naive reads always, the tiled kernel's
// phases when the kernel is "tiled".
struct MatmulElementReads {
  MatmulSize size;
  MatrixCell element;
  bool tiled = false;
  std::uint32_t tile = 0;
  NaiveReads naive;
  std::vector<TilePhase> phases;  // empty for the naive kernel
};
Result<MatmulElementReads> matmul_element_reads(const ParamValues& values, std::uint32_t row,
                                                std::uint32_t col);

}  // namespace tl::lessons
