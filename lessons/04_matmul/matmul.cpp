#include "matmul.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/format.hpp"

namespace tl::lessons {
namespace {

std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}

std::string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

// Calibration of the cost models (see the header): rates measured on the 2-core development VM
// while other builds ran, rounded towards slow.
//
// The article's triple loop reads B down a column: once B outgrows the cache, every term costs a
// cache miss, and it runs far below the CPU's arithmetic rate (0.36 GFLOP/s at 1024^3 there).
constexpr double kNaiveCpuFlopsPerSecond = 0.4e9;
// The blocked loop streams rows of B through the cache and vectorises (4.4 GFLOP/s there): per
// thread.
constexpr double kBlockedCpuFlopsPerSecondPerThread = 2.0e9;
// The emulator: a cost per emulated thread (setting the indices, calling the kernel), much more
// for a kernel with barriers (each thread becomes a fiber with its own context), a cost per
// multiply-add, and for each thread at each __syncthreads() a fiber switch there and back.
// Measured: 256^3 takes 0.03 s naive, 2.4 s tiled with TILE = 8, on two workers.
constexpr double kEmulatorSecondsPerThread = 40e-9;
constexpr double kEmulatorSecondsPerFiberThread = 7e-6;
constexpr double kEmulatorSecondsPerMultiplyAdd = 4e-9;
constexpr double kEmulatorSecondsPerBarrier = 1.1e-6;

}  // namespace

std::string MatmulSize::to_string() const {
  return std::to_string(m) + "×" + std::to_string(n) + "×" + std::to_string(k);
}

Status validate_matmul_size(const MatmulSize& size, std::uint64_t max_bytes) {
  if (size.m == 0 || size.n == 0 || size.k == 0) {
    return invalid_argument("M, N and K must all be at least 1 (got M×N×K = " + size.to_string() +
                            "): there is nothing to multiply.");
  }
  struct Matrix {
    const char* name;
    std::uint64_t elements;
    std::string shape;
  };
  for (const Matrix& matrix :
       {Matrix{"A", size.a_elements(), "M×K"}, Matrix{"B", size.b_elements(), "K×N"},
        Matrix{"C", size.c_elements(), "M×N"}}) {
    if (matrix.elements > kMatmulMaxElements) {
      return invalid_argument(std::string(matrix.name) + " (" + matrix.shape + ") would hold " +
                              format_count(matrix.elements) +
                              " elements, more than the kernels' int index can reach (" +
                              format_count(kMatmulMaxElements) + ").");
    }
  }
  if (max_bytes > 0 && matmul_bytes(size) > static_cast<double>(max_bytes)) {
    return Error{ErrorKind::kOutOfMemory,
                 "M×N×K = " + size.to_string() + " needs " + format_bytes(matmul_bytes(size)) +
                     " for A, B and C, but only " + format_bytes(static_cast<double>(max_bytes)) +
                     " is available."};
  }
  return Status::ok();
}

Result<MatmulKernel> parse_matmul_kernel(std::string_view text) {
  for (const kernels::MatmulKernelName& entry : kernels::kMatmulKernelNames) {
    if (entry.name == text) return entry.kernel;
  }
  return invalid_argument(
      "unknown matmul kernel '" + std::string(text) +
      "': choose uncoalesced, naive, tiled, regtile-1d, regtile-2d, vectorized, warptile or "
      "pipelined (the ladder from one thread per element to warp tiling fed by cp.async), or a "
      "tensor-core rung: wmma-fp16, "
      "wmma-bf16, wmma-tf32, mma-fp16, wgmma-fp16, wgmma-tma-fp16 or wgmma-tma-bf16.");
}

Dim3 MatmulVariant::launch_block() const {
  if (kernel == MatmulKernel::kTiled) return Dim3{tile, tile, 1};
  if (const auto shape = matmul_block_tile(kernel)) return Dim3{shape->threads, 1, 1};
  return block;
}

std::string MatmulVariant::to_string() const {
  if (kernel == MatmulKernel::kTiled) return "tiled, TILE = " + std::to_string(tile);
  if (const auto shape = matmul_block_tile(kernel)) {
    return std::string(lessons::to_string(kernel)) + ", " + std::to_string(shape->tile_m) + "×" +
           std::to_string(shape->tile_n) + " per block";
  }
  return std::string(lessons::to_string(kernel)) + ", block " + tl::to_string(block);
}

Status validate_matmul_variant(const MatmulVariant& variant) {
  if (variant.kernel == MatmulKernel::kTiled &&
      std::find(std::begin(kMatmulTiles), std::end(kMatmulTiles), variant.tile) ==
          std::end(kMatmulTiles)) {
    return invalid_argument("TILE = " + std::to_string(variant.tile) +
                            " is not available: the tiled kernel is compiled for TILE = 8, 16 and "
                            "32 (a TILE×TILE block may hold at most 1024 threads).");
  }
  return Status::ok();
}

LaunchConfig matmul_covering_config(const MatmulSize& size, const MatmulVariant& variant) {
  LaunchConfig config;
  config.block = variant.launch_block();
  if (const auto shape = matmul_block_tile(variant.kernel)) {
    config.grid = {ceil_div(size.n, shape->tile_n), ceil_div(size.m, shape->tile_m), 1};
    return config;
  }
  const std::uint32_t bx = std::max<std::uint32_t>(config.block.x, 1);
  const std::uint32_t by = std::max<std::uint32_t>(config.block.y, 1);
  if (variant.kernel == MatmulKernel::kUncoalesced) {
    config.grid = {ceil_div(size.m, bx), ceil_div(size.n, by), 1};  // x over the rows
  } else {
    config.grid = {ceil_div(size.n, bx), ceil_div(size.m, by), 1};
  }
  return config;
}

double predicted_cpu_seconds(const MatmulSize& size, CpuReference reference, unsigned threads) {
  const double flops = matmul_flops(size);
  if (reference == CpuReference::kNaive) return flops / kNaiveCpuFlopsPerSecond;
  return flops / (kBlockedCpuFlopsPerSecondPerThread * std::max(1u, threads));
}

std::string cpu_reference_skip_reason(const MatmulSize& size, CpuReference reference,
                                      unsigned threads) {
  const double seconds = predicted_cpu_seconds(size, reference, threads);
  if (seconds <= kCpuReferenceBudgetSeconds) return {};
  const char* name = reference == CpuReference::kNaive ? "the single-threaded triple loop"
                                                       : "the cache-blocked multi-threaded loop";
  return "CPU reference skipped: " + std::string(name) + " would need about " +
         format_seconds(seconds) + " for " +
         format_count(static_cast<std::uint64_t>(matmul_flops(size))) +
         " floating-point operations (M×N×K = " + size.to_string() + "); the limit is " +
         format_seconds(kCpuReferenceBudgetSeconds) + ".";
}

double predicted_emulator_seconds(const MatmulSize& size, const MatmulVariant& variant,
                                  const LaunchConfig& config, unsigned workers) {
  const double threads = static_cast<double>(config.total_threads());
  double multiply_adds = 0;
  double barriers = 0;
  const auto block_tile = matmul_block_tile(variant.kernel);
  if (variant.kernel == MatmulKernel::kTiled) {
    // Every thread, inside the matrix or not, loads its share and runs every phase.
    const double phases = std::ceil(static_cast<double>(size.k) / variant.tile);
    multiply_adds = threads * phases * variant.tile;
    barriers = threads * phases * 2;
  } else if (block_tile) {
    // Every block computes its whole tile, edges included, phase by phase.
    const double phases = std::ceil(static_cast<double>(size.k) / block_tile->tile_k);
    multiply_adds = static_cast<double>(config.grid.volume()) * block_tile->tile_m *
                    block_tile->tile_n * phases * block_tile->tile_k;
    barriers = threads * phases * 2;
  } else {
    // Only threads inside C loop over K; z-layers of the block and grid repeat the same elements.
    const auto extent = [](std::uint32_t grid, std::uint32_t block) {
      return static_cast<double>(grid) * static_cast<double>(block);
    };
    const bool x_rows = variant.kernel == MatmulKernel::kUncoalesced;
    const double cols = std::min<double>(size.n, x_rows ? extent(config.grid.y, config.block.y)
                                                        : extent(config.grid.x, config.block.x));
    const double rows = std::min<double>(size.m, x_rows ? extent(config.grid.x, config.block.x)
                                                        : extent(config.grid.y, config.block.y));
    const double layers = extent(config.grid.z, config.block.z);
    multiply_adds = cols * rows * layers * size.k;
  }
  const bool fibers = variant.kernel == MatmulKernel::kTiled || block_tile.has_value();
  const double per_thread = fibers ? kEmulatorSecondsPerFiberThread : kEmulatorSecondsPerThread;
  const double seconds = threads * per_thread + multiply_adds * kEmulatorSecondsPerMultiplyAdd +
                         barriers * kEmulatorSecondsPerBarrier;
  return seconds / std::max(1u, workers);
}

Status check_emulator_budget(const MatmulSize& size, const MatmulVariant& variant,
                             const LaunchConfig& config, unsigned workers) {
  const double seconds = predicted_emulator_seconds(size, variant, config, workers);
  if (seconds <= kEmulatorLaunchBudgetSeconds) return Status::ok();
  // The largest square size (in steps of 16) that fits, to suggest something that works.
  std::uint32_t fits = 16;
  for (std::uint32_t s = 32; s <= 4096; s += 16) {
    const MatmulSize square{s, s, s};
    if (predicted_emulator_seconds(square, variant, matmul_covering_config(square, variant),
                                   workers) > kEmulatorLaunchBudgetSeconds) {
      break;
    }
    fits = s;
  }
  return Error{ErrorKind::kTooSlow,
               "M×N×K = " + size.to_string() + " with " + config.to_string() + " (" +
                   variant.to_string() + ") would take about " + format_seconds(seconds) +
                   " per launch on the emulator, which runs every one of its " +
                   format_count(config.total_threads()) + " threads on " +
                   std::to_string(std::max(1u, workers)) +
                   " CPU core(s); the emulator's limit is " +
                   format_seconds(kEmulatorLaunchBudgetSeconds) + ". Try up to about " +
                   std::to_string(fits) + "×" + std::to_string(fits) + "×" + std::to_string(fits) +
                   ", or run on a GPU."};
}

// Why this tolerance. Element (i, j) of C is a sum of K products a_il * b_lj. In float32 each
// multiply and add rounds with relative error at most u = 2^-24, and whatever the order of the
// additions (the naive loop, tile by tile, cuBLAS's split sums, with or without fused multiply-add)
// the computed sum differs from the exact one by at most
//     gamma_K * sum_l |a_il| |b_lj|,   gamma_K = K u / (1 - K u)
// (Higham, Accuracy and Stability of Numerical Algorithms, section 3.1). Two computations that both
// satisfy this differ by at most twice that, and by Cauchy-Schwarz the sum of |a||b| is at most
// ||row i of A|| * ||column j of B||. So the allowed difference grows with K and with the size of
// the data, as rounding does: a fixed absolute tolerance would be too strict for large K and too
// lax for small values. This bound is a worst case, so a correct kernel never fails it, while an
// indexing bug (a missing, repeated or wrong term, of the size of |a||b| itself) lands far outside
// it. K * FLT_MIN covers products that underflow, which the relative bound does not.
float matmul_tolerance(std::uint32_t k, double a_row_norm, double b_col_norm) {
  const double u = std::ldexp(1.0, -24);
  const double ku = static_cast<double>(k) * u;
  const double gamma = ku < 0.5 ? ku / (1.0 - ku) : 1.0;
  return static_cast<float>(2.0 * gamma * a_row_norm * b_col_norm +
                            static_cast<double>(k) * FLT_MIN);
}

std::string MatmulCheckResult::describe() const {
  char max_error[32];
  std::snprintf(max_error, sizeof max_error, "%.3g", max_abs_error);
  if (passed) {
    return "check passed: every element of C is within " + allowance +
           " of the reference (largest difference " + max_error + ")";
  }
  char detail[160];
  std::snprintf(detail, sizeof detail, "expected %.7g, got %.7g (allowed difference %.3g)",
                static_cast<double>(expected), static_cast<double>(actual),
                static_cast<double>(tolerance));
  return "check FAILED: " + format_count(wrong_count) + " wrong element(s); first at (row " +
         std::to_string(first_wrong_row) + ", col " + std::to_string(first_wrong_col) +
         "): " + detail + "; largest difference " + max_error;
}

MatmulCheckResult check_matmul(std::span<const float> a, std::span<const float> b,
                               std::span<const float> c, std::span<const float> reference,
                               const MatmulSize& size, double tolerance_scale) {
  const std::size_t m = size.m, n = size.n, k = size.k;
  // Norms in double: row norms of A, and column norms of B accumulated row by row, so B is read in
  // memory order.
  std::vector<double> a_norm(m, 0.0), b_norm(n, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t l = 0; l < k; ++l) {
      const double v = a[i * k + l];
      a_norm[i] += v * v;
    }
    a_norm[i] = std::sqrt(a_norm[i]);
  }
  for (std::size_t l = 0; l < k; ++l) {
    for (std::size_t j = 0; j < n; ++j) {
      const double v = b[l * n + j];
      b_norm[j] += v * v;
    }
  }
  for (double& norm : b_norm) norm = std::sqrt(norm);

  MatmulCheckResult result;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const float expected = reference[i * n + j];
      const float actual = c[i * n + j];
      double error = std::fabs(static_cast<double>(actual) - static_cast<double>(expected));
      if (std::isnan(error)) error = std::numeric_limits<double>::infinity();
      result.max_abs_error = std::max(result.max_abs_error, error);
      const float tolerance =
          static_cast<float>(tolerance_scale * matmul_tolerance(size.k, a_norm[i], b_norm[j]));
      if (!(error <= tolerance)) {
        if (result.passed) {
          result.passed = false;
          result.first_wrong_row = static_cast<std::uint32_t>(i);
          result.first_wrong_col = static_cast<std::uint32_t>(j);
          result.expected = expected;
          result.actual = actual;
          result.tolerance = tolerance;
        }
        ++result.wrong_count;
      }
    }
  }
  return result;
}

}  // namespace tl::lessons
