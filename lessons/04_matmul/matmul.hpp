#pragma once
// Lesson 4, matrix multiply C = A · B: the parameters, their validation, the cost models that keep
// slow work from hanging the app, and the check. Matrices are row-major floats: A is M×K, B is K×N,
// C is M×N. No CUDA here: the kernels live in lessons/04_matmul/kernels/matmul.cuh and run through
// app/compute; the CPU references are in matmul_reference.hpp and the tile picture in
// matmul_tiles.hpp.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/result.hpp"
#include "lessons/04_matmul/kernels/matmul_shapes.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kMatmulInfo{4, "matmul", "Matrix multiply",
                                        "naive, shared-memory tiled and cuBLAS", "04_matmul"};
inline constexpr std::string_view kMatmulId = kMatmulInfo.id;

struct MatmulSize {
  std::uint32_t m = 512;  // rows of A and C
  std::uint32_t n = 512;  // columns of B and C
  std::uint32_t k = 512;  // columns of A, rows of B: the length of every dot product
  [[nodiscard]] std::uint64_t a_elements() const { return std::uint64_t{m} * k; }
  [[nodiscard]] std::uint64_t b_elements() const { return std::uint64_t{k} * n; }
  [[nodiscard]] std::uint64_t c_elements() const { return std::uint64_t{m} * n; }
  // "37×53×29" (M×N×K).
  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const MatmulSize&, const MatmulSize&) = default;
};

// One multiply and one add per term of each of the M·N dot products of length K.
[[nodiscard]] inline double matmul_flops(const MatmulSize& s) {
  return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
}
// The least memory traffic possible: read A and B once, write C once. A kernel that re-reads from
// DRAM moves more; GB/s against this figure shows how well a kernel reuses data.
[[nodiscard]] inline double matmul_bytes(const MatmulSize& s) {
  return 4.0 * static_cast<double>(s.a_elements() + s.b_elements() + s.c_elements());
}
// The same for a rung whose inputs are `input` (FP16 and BF16: 2 bytes each; C stays float).
[[nodiscard]] inline double matmul_bytes(const MatmulSize& s, kernels::MatmulInput input) {
  const bool sixteen_bit =
      input == kernels::MatmulInput::kFp16 || input == kernels::MatmulInput::kBf16;
  return (sixteen_bit ? 2.0 : 4.0) * static_cast<double>(s.a_elements() + s.b_elements()) +
         4.0 * static_cast<double>(s.c_elements());
}

// The kernels index with 32-bit ints (row * k + i), as the source article writes them, so no
// matrix may hold more elements than an int can count.
inline constexpr std::uint64_t kMatmulMaxElements = 0x7FFFFFFFull;

// M, N and K must be at least 1, every matrix must fit the kernels' int index and, together, the
// memory available (max_bytes; 0 skips that check).
Status validate_matmul_size(const MatmulSize& size, std::uint64_t max_bytes);

// The ladder of rungs, their names and the register-tiled rungs' fixed block tiles are the
// kernels' facts (lessons/04_matmul/kernels/matmul_shapes.hpp): the lesson speaks of them by the
// same names.
using kernels::kMatmulLadder;
using kernels::kMatmulTiles;
using kernels::matmul_block_tile;
using kernels::MatmulBlockTile;
using kernels::MatmulKernel;
using kernels::to_string;
Result<MatmulKernel> parse_matmul_kernel(std::string_view text);

struct MatmulVariant {
  MatmulKernel kernel = MatmulKernel::kTiled;
  std::uint32_t tile = 16;  // tiled only: 8, 16 or 32; the block is tile×tile
  Dim3 block{16, 16, 1};    // naive and uncoalesced only: any 2D block CUDA accepts
  // The block the kernel launches with: tile×tile for the tiled kernel, the fixed thread count of a
  // register-tiled rung, `block` for the naive and uncoalesced ones.
  [[nodiscard]] Dim3 launch_block() const;
  // "naive, block 16×16", "tiled, TILE = 16", "warptile, 128×128 per block".
  [[nodiscard]] std::string to_string() const;
};

// The tile must be one the kernel is compiled for. The naive block is left to the launch, so that
// an oversized one fails with CUDA's own error, as the lesson wants students to see.
Status validate_matmul_variant(const MatmulVariant& variant);

// Enough blocks to cover C: one thread per element (x over the N columns, y over the M rows; the
// uncoalesced kernel the other way round), or one block per tile of a register-tiled rung.
[[nodiscard]] LaunchConfig matmul_covering_config(const MatmulSize& size,
                                                  const MatmulVariant& variant);

// ---- Cost models --------------------------------------------------------------------------------
// Rough rates, measured on a modest 2-core development VM and rounded down, so that predictions
// err on the slow side: a reference is skipped rather than left to freeze a lesson.

// A CPU reference whose predicted time is above this is skipped with a message.
inline constexpr double kCpuReferenceBudgetSeconds = 3.0;

enum class CpuReference {
  kNaive,    // the triple loop, one thread (matmul_reference)
  kBlocked,  // cache-blocked, all cores (matmul_reference_blocked)
};

[[nodiscard]] double predicted_cpu_seconds(const MatmulSize& size, CpuReference reference,
                                           unsigned threads);
// Empty when the reference fits the budget, else a sentence saying why it is skipped.
[[nodiscard]] std::string cpu_reference_skip_reason(const MatmulSize& size, CpuReference reference,
                                                    unsigned threads);

// The emulator runs every CUDA thread on the CPU, one after another on each of `workers` cores, and
// the tiled kernel switches fibers at every __syncthreads(). One launch above this is refused.
inline constexpr double kEmulatorLaunchBudgetSeconds = 2.0;

[[nodiscard]] double predicted_emulator_seconds(const MatmulSize& size,
                                                const MatmulVariant& variant,
                                                const LaunchConfig& config, unsigned workers);
// ErrorKind::kTooSlow with the predicted time and a size that fits, when one launch would take
// longer than kEmulatorLaunchBudgetSeconds.
Status check_emulator_budget(const MatmulSize& size, const MatmulVariant& variant,
                             const LaunchConfig& config, unsigned workers);

// ---- Check -------------------------------------------------------------------------------------

struct MatmulCheckResult {
  bool passed = true;
  std::uint64_t wrong_count = 0;
  std::uint32_t first_wrong_row = 0;  // meaningful when !passed
  std::uint32_t first_wrong_col = 0;
  float expected = 0;
  float actual = 0;
  float tolerance = 0;       // allowed at the first wrong element
  double max_abs_error = 0;  // over all elements; infinity when one is NaN (never written)
  // What the allowance stands for, in "within <allowance> of the reference".
  std::string allowance = "float32 rounding";
  [[nodiscard]] std::string describe() const;
};

// The largest difference float32 rounding allows between two computations of element (i, j) of C
// (see matmul.cpp for the derivation), from the Euclidean norms of row i of A and column j of B.
[[nodiscard]] float matmul_tolerance(std::uint32_t k, double a_row_norm, double b_col_norm);

// Compares c against `reference` (another computation of A · B, e.g. a CPU reference or cuBLAS),
// element by element, within matmul_tolerance times `tolerance_scale` (a tensor rung's
// kTensorToleranceScale, with a and b its rounded inputs).
MatmulCheckResult check_matmul(std::span<const float> a, std::span<const float> b,
                               std::span<const float> c, std::span<const float> reference,
                               const MatmulSize& size, double tolerance_scale = 1.0);

}  // namespace tl::lessons
