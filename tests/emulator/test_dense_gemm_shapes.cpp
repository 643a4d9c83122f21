// The dense layer's pipelined GEMM (kernels/dense_gemm_pipelined.cuh) in both of its shapes, run
// directly on the emulator: 32 values of k per stage (Ampere and later, and the emulator's own
// kernel table) and 16 (what Turing GPUs compile). No Turing GPU is at hand, so this is where that
// shape's index arithmetic is checked. Each against a double-precision product, with the 16-byte
// copies (aligned rows, zero-filled past the end of k) and the scalar ones, across tile edges.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "kernels/trace.cuh"

namespace gemm_source {
#include "kernels/dense_gemm_pipelined.cuh"
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

template <class Shape>
void expect_exact_product(const Problem& p, bool async) {
  const std::vector<float> x = filled(static_cast<std::size_t>(p.batch) * p.in, 1);
  const std::vector<float> w = filled(static_cast<std::size_t>(p.out) * p.in, 2);
  std::vector<float> z(static_cast<std::size_t>(p.batch) * p.out,
                       std::numeric_limits<float>::quiet_NaN());
  ASSERT_EQ(gemm_source::dense_gemm_can_copy_async(x.data(), w.data(), p.in), async)
      << "the case is meant for the " << (async ? "16-byte" : "scalar") << " copies";
  const LaunchConfig config{{static_cast<std::uint32_t>((p.out + Shape::BN - 1) / Shape::BN),
                             static_cast<std::uint32_t>((p.batch + Shape::BM - 1) / Shape::BM), 1},
                            {static_cast<std::uint32_t>(Shape::THREADS), 1, 1}};
  const Status ran = emu::run_grid(config, {.barriers = emu::Barriers::kUsed}, [&] {
    if (async) {
      gemm_source::dense_gemm_pipelined<Shape, true>(x.data(), w.data(), p.batch, p.in, p.out,
                                                     StoreZ{z.data(), p.out});
    } else {
      gemm_source::dense_gemm_pipelined<Shape, false>(x.data(), w.data(), p.batch, p.in, p.out,
                                                      StoreZ{z.data(), p.out});
    }
  });
  ASSERT_TRUE(ran) << ran.message();
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

class DenseGemmShapes : public ::testing::TestWithParam<Problem> {};

TEST_P(DenseGemmShapes, AmpereShapeMatchesTheExactProduct) {
  const Problem p = GetParam();
  expect_exact_product<gemm_source::DenseGemmShapeSm80>(p, p.in % 4 == 0);
}

TEST_P(DenseGemmShapes, TuringShapeMatchesTheExactProduct) {
  const Problem p = GetParam();
  expect_exact_product<gemm_source::DenseGemmShapeSm75>(p, p.in % 4 == 0);
}

INSTANTIATE_TEST_SUITE_P(
    Edges, DenseGemmShapes,
    ::testing::Values(Problem{8, 64, 130},    // whole k tiles, a second column of blocks
                      Problem{20, 100, 70},   // k ends inside a tile: zero-filled copies
                      Problem{37, 29, 53},    // rows not 16-byte aligned: scalar copies
                      Problem{131, 36, 257},  // 2 × 3 blocks, rows and neurons past a tile
                      Problem{1, 1, 1}));     // one product of one pair

TEST(DenseGemmShapes, LaunchSizesFollowTheComputeCapability) {
  EXPECT_EQ(gemm_source::dense_gemm_shared_bytes(9), 72 * 1024);
  EXPECT_EQ(gemm_source::dense_gemm_shared_bytes(8), 72 * 1024);
  EXPECT_EQ(gemm_source::dense_gemm_shared_bytes(7), 40 * 1024);  // Turing allows 64 KiB a block
}

}  // namespace
}  // namespace tl
