#include "matmul_reference.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "core/parallel_chunks.hpp"

namespace tl::lessons {
namespace {

// Blocks of B (kKBlock rows × kNBlock columns, 256 KiB) small enough to stay in a core's L2 cache
// while every row of this thread's part of C passes over them.
constexpr std::size_t kKBlock = 128;
constexpr std::size_t kNBlock = 512;

// C rows [row_begin, row_end) = A rows × B. The innermost loop runs along a row of B and of C:
// contiguous memory, no dependency between iterations, so it vectorises. Each element still adds
// its terms in order l = 0, 1, ..., K - 1.
void multiply_rows(const float* a, const float* b, float* c, std::size_t row_begin,
                   std::size_t row_end, std::size_t n, std::size_t k) {
  std::fill(c + row_begin * n, c + row_end * n, 0.0f);
  for (std::size_t l0 = 0; l0 < k; l0 += kKBlock) {
    const std::size_t l1 = std::min(k, l0 + kKBlock);
    for (std::size_t j0 = 0; j0 < n; j0 += kNBlock) {
      const std::size_t j1 = std::min(n, j0 + kNBlock);
      for (std::size_t i = row_begin; i < row_end; ++i) {
        float* c_row = c + i * n;
        for (std::size_t l = l0; l < l1; ++l) {
          const float a_il = a[i * k + l];
          const float* b_row = b + l * n;
          for (std::size_t j = j0; j < j1; ++j) c_row[j] += a_il * b_row[j];
        }
      }
    }
  }
}

}  // namespace

void matmul_reference(std::span<const float> a, std::span<const float> b, std::span<float> c,
                      const MatmulSize& size) {
  const std::size_t m = size.m, n = size.n, k = size.k;
  for (std::size_t row = 0; row < m; ++row) {
    for (std::size_t col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (std::size_t i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
      c[row * n + col] = sum;
    }
  }
}

unsigned matmul_reference_threads(const MatmulSize& size, unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  // Below about 2^20 multiply-adds per thread, starting it costs more than it saves.
  constexpr double kMinMultiplyAddsPerThread = 1 << 20;
  const double multiply_adds = matmul_flops(size) / 2;
  const auto useful = static_cast<unsigned>(
      std::clamp(multiply_adds / kMinMultiplyAddsPerThread, 1.0, static_cast<double>(threads)));
  return std::min<unsigned>(useful, size.m);
}

unsigned matmul_reference_blocked(std::span<const float> a, std::span<const float> b,
                                  std::span<float> c, const MatmulSize& size, unsigned threads) {
  threads = matmul_reference_threads(size, threads);
  const std::size_t n = size.n, k = size.k;
  // Rows of C in one contiguous chunk per thread (the thread count already weighs the work).
  return for_each_chunk(size.m, threads, 1, [&](std::size_t begin, std::size_t end) {
    multiply_rows(a.data(), b.data(), c.data(), begin, end, n, k);
  });
}

}  // namespace tl::lessons
