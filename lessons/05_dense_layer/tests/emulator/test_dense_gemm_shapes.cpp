// The dense layer's pipelined GEMM (lessons/05_dense_layer/kernels/dense_gemm_pipelined.cuh) run
// directly on the emulator, in both of its variants: whole tiles (copied without bounds checks,
// chosen when batch, out and in are multiples of the tile) and edge tiles (every copy checked,
// zeros past the edges). Each against a double-precision product, across tile edges. The whole-tile
// variant is also run on sizes it would not be chosen for, where it must fail, so the test can tell
// them apart.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "kernels/trace.cuh"

namespace gemm_source {
#include "lessons/05_dense_layer/kernels/dense_gemm_pipelined.cuh"
}  // namespace gemm_source

namespace tl {
namespace {

struct Problem {
  int batch, in, out;
};

void PrintTo(const Problem& p, std::ostream* os) {
  *os << p.batch << "×" << p.in << " · (" << p.out << "×" << p.in << ")ᵀ";
}

struct StoreZ {
  float* z;
  int out;
  void operator()(int row, int col, float value) const { z[row * out + col] = value; }
};

std::vector<float> filled(std::size_t n, unsigned salt) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<float>((i * 2654435761u + salt) % 1000) / 1000.0f - 0.5f;
  }
  return v;
}

// Runs the product with the given variant; returns Z.
std::vector<float> run_product(const Problem& p, bool whole_tiles, const std::vector<float>& x,
                               const std::vector<float>& w) {
  using Shape = gemm_source::DenseGemmShape;
  std::vector<float> z(static_cast<std::size_t>(p.batch) * p.out,
                       std::numeric_limits<float>::quiet_NaN());
  const LaunchConfig config{{static_cast<std::uint32_t>((p.out + Shape::BN - 1) / Shape::BN),
                             static_cast<std::uint32_t>((p.batch + Shape::BM - 1) / Shape::BM), 1},
                            {static_cast<std::uint32_t>(Shape::THREADS), 1, 1}};
  const Status ran = emu::run_grid(config, {.barriers = emu::Barriers::kUsed}, [&] {
    if (whole_tiles) {
      gemm_source::dense_gemm_pipelined<true>(x.data(), w.data(), p.batch, p.in, p.out,
                                              StoreZ{z.data(), p.out});
    } else {
      gemm_source::dense_gemm_pipelined<false>(x.data(), w.data(), p.batch, p.in, p.out,
                                               StoreZ{z.data(), p.out});
    }
  });
  EXPECT_TRUE(ran) << ran.message();
  return z;
}

void expect_exact_product(const Problem& p, bool whole_tiles) {
  const std::vector<float> x = filled(static_cast<std::size_t>(p.batch) * p.in, 1);
  const std::vector<float> w = filled(static_cast<std::size_t>(p.out) * p.in, 2);
  const std::vector<float> z = run_product(p, whole_tiles, x, w);
  int wrong = 0;
  for (int r = 0; r < p.batch; ++r) {
    for (int o = 0; o < p.out; ++o) {
      double exact = 0.0, magnitude = 0.0;
      for (int i = 0; i < p.in; ++i) {
        const double term = static_cast<double>(x[r * p.in + i]) * w[o * p.in + i];
        exact += term;
        magnitude += std::fabs(term);
      }
      // float sums of `in` terms: a few units in the last place per term, at most.
      const double tolerance = 1e-6 * p.in * (1.0 + magnitude);
      const float got = z[r * p.out + o];
      if (!(std::fabs(got - exact) <= tolerance) && ++wrong <= 5) {
        ADD_FAILURE() << "Z[" << r << "][" << o << "] = " << got << ", exact " << exact;
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

class DenseGemmEdges : public ::testing::TestWithParam<Problem> {};

TEST_P(DenseGemmEdges, EdgeTilesMatchTheExactProduct) {
  const Problem p = GetParam();
  EXPECT_FALSE(gemm_source::dense_gemm_whole_tiles(p.batch, p.in, p.out))
      << "the case is meant to cross an edge of a tile";
  expect_exact_product(p, false);
}

INSTANTIATE_TEST_SUITE_P(
    Edges, DenseGemmEdges,
    ::testing::Values(Problem{8, 64, 130},    // whole k tiles, a second column of blocks
                      Problem{20, 100, 70},   // k ends inside a tile: zero-filled copies
                      Problem{37, 29, 53},    // k ends inside the first group of 8
                      Problem{131, 36, 257},  // 2 × 3 blocks, rows and neurons past a tile
                      Problem{128, 48, 200},  // whole rows and k, neurons past a tile
                      Problem{1, 1, 1}));     // one product of one pair

class DenseGemmWhole : public ::testing::TestWithParam<Problem> {};

TEST_P(DenseGemmWhole, WholeTilesMatchTheExactProduct) {
  const Problem p = GetParam();
  ASSERT_TRUE(gemm_source::dense_gemm_whole_tiles(p.batch, p.in, p.out));
  expect_exact_product(p, true);
  expect_exact_product(p, false);  // the edge variant agrees where both may run
}

INSTANTIATE_TEST_SUITE_P(Whole, DenseGemmWhole,
                         ::testing::Values(Problem{128, 16, 128},    // one tile, one stage
                                           Problem{128, 64, 256},    // two blocks, four stages
                                           Problem{256, 48, 128}));  // two block rows

TEST(DenseGemmVariants, WholeTilesAreChosenOnlyWhereEveryTileIsWhole) {
  EXPECT_TRUE(gemm_source::dense_gemm_whole_tiles(4096, 4096, 4096));
  EXPECT_FALSE(gemm_source::dense_gemm_whole_tiles(4095, 4096, 4096));
  EXPECT_FALSE(gemm_source::dense_gemm_whole_tiles(4096, 4088, 4096));  // k: 8 past a tile
  EXPECT_FALSE(gemm_source::dense_gemm_whole_tiles(4096, 4096, 4000));
}

// The whole-tile copies do not check bounds, so on a size they were not chosen for they read the
// wrong values (here: inside the larger buffers given, but the wrong rows): the result differs.
// This is what makes the test above able to tell the two variants apart.
TEST(DenseGemmVariants, WholeTileCopiesAreNotTheEdgeCopies) {
  const Problem p{128, 24, 128};  // k ends half-way through the second group of 16
  const std::vector<float> x = filled(static_cast<std::size_t>(p.batch) * 32, 1);
  const std::vector<float> w = filled(static_cast<std::size_t>(p.out) * 32, 2);
  const std::vector<float> whole = run_product(p, true, x, w);
  const std::vector<float> edge = run_product(p, false, x, w);
  EXPECT_NE(whole, edge);
}

TEST(DenseGemmVariants, SharedMemoryFitsWithoutOptIn) {
  // 48 KiB is what every GPU gives a block without asking, Turing included.
  EXPECT_EQ(gemm_source::dense_gemm_shared_bytes(), 2 * 2 * 16 * 132 * 4);
  EXPECT_LE(gemm_source::dense_gemm_shared_bytes(), 48 * 1024);
}

}  // namespace
}  // namespace tl
