#pragma once
// What several exercises share: the awkward sizes of the hidden checks, random arrays, and the
// exercises that differ only in a mapping (matrix add along columns or rows).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lab/exercise.hpp"

namespace tl::exercise_modules {

// Vector lengths every 1D exercise checks: a single element, just under and over a warp, a size
// no block divides, and one past a million.
inline constexpr std::int64_t kAwkwardLengths[] = {1, 31, 33, 1000, (1 << 20) + 7};

// rows × cols, none a multiple of 16 on both sides, one square and large.
inline constexpr std::pair<std::int64_t, std::int64_t> kAwkwardShapes[] = {
    {1, 1}, {31, 33}, {33, 31}, {100, 257}, {1000, 1000}};

[[nodiscard]] lab::ArrayData random_floats(lab::CheckData& data, std::int64_t rows,
                                           std::int64_t cols, float low, float high);
[[nodiscard]] lab::ArrayData unwritten(lab::ElementType type, std::int64_t rows, std::int64_t cols);
// A case with one argument and one expected slot per parameter.
[[nodiscard]] lab::CheckCase empty_case(const lab::Exercise& exercise, std::string label);
[[nodiscard]] std::string shape_label(std::int64_t rows, std::int64_t cols);

// Matrix add over a 2D grid of 16 × 16 blocks whose x covers the columns (coalesced) or the rows.
[[nodiscard]] lab::Exercise matrix_add_exercise(bool x_walks_columns);

// out = transpose(in) over blocks of 16 × 16 (naive) or 32 × 32 through a shared tile.
[[nodiscard]] lab::Exercise transpose_exercise(bool tiled);

// C = A · B (A: M × K, B: K × N) over 16 × 16 blocks, x along C's columns; naive, or through
// shared-memory tiles.
[[nodiscard]] lab::Exercise matmul_exercise(bool tiled);

// sum[0] = x[0] + ... + x[n-1] into a one-element output that starts at 0; blocks of `block`
// threads, one element per thread.
[[nodiscard]] std::vector<lab::CheckCase> sum_cases(
    const std::vector<lab::ParameterSpec>& parameters, std::uint64_t seed, Dim3 block);
[[nodiscard]] lab::Exercise sum_exercise(std::string id, std::string title, std::string kernel,
                                         std::vector<lab::SourceRule> rules, bool block_is_fixed);

}  // namespace tl::exercise_modules

namespace tl::exercise_modules {

// The adjacent difference of lesson 10's find-and-fix exercises, out[i] = in[i] - in[i - 1] and
// out[0] = in[0], over blocks of 256 threads and ceil(n / 256) blocks: the starter is the kernel
// with one planted bug, the solution the right one.
[[nodiscard]] lab::Exercise difference_exercise(std::string id, std::string title,
                                                std::vector<lab::SourceRule> rules);

}  // namespace tl::exercise_modules
