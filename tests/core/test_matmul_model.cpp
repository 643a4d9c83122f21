#include "lessons/04_matmul/matmul.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/04_matmul/matmul_reference.hpp"

namespace tl::lessons {
namespace {

struct Matrices {
  MatmulSize size;
  std::vector<float> a, b;
  explicit Matrices(MatmulSize s) : size(s), a(s.a_elements()), b(s.b_elements()) {
    fill_random(a, 11);
    fill_random(b, 12);
  }
};

TEST(MatmulModel, FlopsAndBytes) {
  const MatmulSize size{37, 53, 29};
  EXPECT_DOUBLE_EQ(matmul_flops(size), 2.0 * 37 * 53 * 29);
  EXPECT_DOUBLE_EQ(matmul_bytes(size), 4.0 * (37 * 29 + 29 * 53 + 37 * 53));
  EXPECT_EQ(size.to_string(), "37×53×29");
}

TEST(MatmulModel, SizeValidation) {
  EXPECT_TRUE(validate_matmul_size({1, 1, 1}, 0).is_ok());
  for (MatmulSize zero : {MatmulSize{0, 4, 4}, MatmulSize{4, 0, 4}, MatmulSize{4, 4, 0}}) {
    const Status s = validate_matmul_size(zero, 0);
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.error().kind, ErrorKind::kInvalidArgument);
  }
  // 65536 × 32768 elements in A overflow the kernels' int index; B and C stay small.
  const Status index = validate_matmul_size({65536, 1, 32768}, 0);
  ASSERT_FALSE(index.is_ok());
  EXPECT_NE(index.message().find("A (M×K)"), std::string::npos) << index.message();
  // 8×8×8: three 256-byte matrices.
  EXPECT_TRUE(validate_matmul_size({8, 8, 8}, 768).is_ok());
  const Status memory = validate_matmul_size({8, 8, 8}, 767);
  ASSERT_FALSE(memory.is_ok());
  EXPECT_EQ(memory.error().kind, ErrorKind::kOutOfMemory);
}

TEST(MatmulModel, KernelNamesAndTiles) {
  EXPECT_EQ(*parse_matmul_kernel("naive"), MatmulKernel::kNaive);
  EXPECT_EQ(*parse_matmul_kernel("tiled"), MatmulKernel::kTiled);
  EXPECT_FALSE(parse_matmul_kernel("fast").is_ok());
  EXPECT_EQ(to_string(MatmulKernel::kTiled), "tiled");
  for (std::uint32_t tile : {8u, 16u, 32u}) {
    EXPECT_TRUE(validate_matmul_variant({MatmulKernel::kTiled, tile, {}}).is_ok()) << tile;
  }
  for (std::uint32_t tile : {0u, 4u, 12u, 64u}) {
    EXPECT_FALSE(validate_matmul_variant({MatmulKernel::kTiled, tile, {}}).is_ok()) << tile;
  }
  // The naive kernel ignores the tile; its block is CUDA's to refuse at launch.
  EXPECT_TRUE(validate_matmul_variant({MatmulKernel::kNaive, 5, {64, 64, 1}}).is_ok());
}

TEST(MatmulModel, CoveringConfigPutsColumnsOnXAndRowsOnY) {
  const MatmulSize size{37, 53, 29};
  const LaunchConfig naive = matmul_covering_config(size, {MatmulKernel::kNaive, 16, {32, 8, 1}});
  EXPECT_EQ(naive, (LaunchConfig{{2, 5, 1}, {32, 8, 1}}));  // 64 ≥ 53 columns, 40 ≥ 37 rows
  const LaunchConfig tiled = matmul_covering_config(size, {MatmulKernel::kTiled, 16, {1, 1, 1}});
  EXPECT_EQ(tiled, (LaunchConfig{{4, 3, 1}, {16, 16, 1}}));
  EXPECT_EQ(matmul_covering_config({1, 1, 1}, {MatmulKernel::kTiled, 32, {}}),
            (LaunchConfig{{1, 1, 1}, {32, 32, 1}}));
}

TEST(MatmulModel, CpuReferencesAreSkippedWhenPredictedTooSlow) {
  EXPECT_TRUE(cpu_reference_skip_reason({256, 256, 256}, CpuReference::kNaive, 1).empty());
  EXPECT_TRUE(cpu_reference_skip_reason({512, 512, 512}, CpuReference::kBlocked, 2).empty());
  const std::string naive = cpu_reference_skip_reason({4096, 4096, 4096}, CpuReference::kNaive, 1);
  EXPECT_NE(naive.find("skipped"), std::string::npos) << naive;
  EXPECT_NE(naive.find("4096×4096×4096"), std::string::npos) << naive;
  // More threads, less predicted time.
  EXPECT_LT(predicted_cpu_seconds({1024, 1024, 1024}, CpuReference::kBlocked, 8),
            predicted_cpu_seconds({1024, 1024, 1024}, CpuReference::kBlocked, 2));
  EXPECT_GT(predicted_cpu_seconds({1024, 1024, 1024}, CpuReference::kNaive, 1),
            predicted_cpu_seconds({1024, 1024, 1024}, CpuReference::kBlocked, 1));
}

TEST(MatmulModel, EmulatorBudgetRefusesLargeLaunchesWithASizeThatFits) {
  const MatmulVariant tiled{MatmulKernel::kTiled, 8, {}};
  const MatmulSize small{64, 64, 64};
  EXPECT_TRUE(check_emulator_budget(small, tiled, matmul_covering_config(small, tiled), 2).is_ok());
  const MatmulSize big{2048, 2048, 2048};
  const Status refused = check_emulator_budget(big, tiled, matmul_covering_config(big, tiled), 2);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(refused.message().find("emulator"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("Try up to about"), std::string::npos) << refused.message();
  // An enormous, mostly idle grid costs time too.
  const MatmulVariant naive{MatmulKernel::kNaive, 16, {32, 32, 1}};
  EXPECT_FALSE(check_emulator_budget(small, naive, {{65535, 1024, 1}, {32, 32, 1}}, 2).is_ok());
}

TEST(MatmulModel, ReferencesAgreeOnOddSizes) {
  for (MatmulSize size : {MatmulSize{1, 1, 1}, MatmulSize{37, 53, 29}, MatmulSize{130, 7, 600},
                          MatmulSize{200, 700, 3}}) {
    Matrices in(size);
    std::vector<float> naive(size.c_elements()), blocked(size.c_elements());
    matmul_reference(in.a, in.b, naive, size);
    matmul_reference_blocked(in.a, in.b, blocked, size, 4);
    const MatmulCheckResult check = check_matmul(in.a, in.b, blocked, naive, size);
    EXPECT_TRUE(check.passed) << size.to_string() << ": " << check.describe();
  }
}

TEST(MatmulModel, NaiveReferenceIsTheDefinition) {
  // [1 2 3; 4 5 6] · [7 8; 9 10; 11 12] = [58 64; 139 154]
  const std::vector<float> a{1, 2, 3, 4, 5, 6};
  const std::vector<float> b{7, 8, 9, 10, 11, 12};
  std::vector<float> c(4), blocked(4);
  matmul_reference(a, b, c, {2, 2, 3});
  EXPECT_EQ(c, (std::vector<float>{58, 64, 139, 154}));
  matmul_reference_blocked(a, b, blocked, {2, 2, 3});
  EXPECT_EQ(blocked, c);
}

TEST(MatmulModel, BlockedReferenceUsesFewThreadsForSmallProducts) {
  EXPECT_EQ(matmul_reference_threads({4, 4, 4}, 8), 1u);
  EXPECT_EQ(matmul_reference_threads({2, 4096, 4096}, 8), 2u);  // never more threads than rows
  EXPECT_EQ(matmul_reference_threads({1024, 1024, 1024}, 8), 8u);
}

TEST(MatmulModel, ToleranceGrowsWithKAndTheData) {
  EXPECT_LT(matmul_tolerance(16, 1, 1), matmul_tolerance(4096, 1, 1));
  EXPECT_LT(matmul_tolerance(256, 1, 1), matmul_tolerance(256, 10, 10));
  // 2 K u |a||b|: for K = 1024 and unit norms about 1.2e-4.
  EXPECT_NEAR(matmul_tolerance(1024, 1, 1), 2.0 * 1024 / 16777216.0, 1e-7);
}

TEST(MatmulModel, ToleranceAcceptsRoundingButNotAMissingTerm) {
  const MatmulSize size{64, 64, 1000};
  Matrices in(size);
  std::vector<float> reference(size.c_elements());
  matmul_reference(in.a, in.b, reference, size);
  // The same sums added in reverse order and in double: different rounding, still correct.
  std::vector<float> reordered(size.c_elements()), missing_term(size.c_elements());
  for (std::uint32_t i = 0; i < size.m; ++i) {
    for (std::uint32_t j = 0; j < size.n; ++j) {
      double sum = 0;
      float sum_reversed = 0;
      for (std::uint32_t l = size.k; l-- > 0;) {
        sum += double{in.a[i * size.k + l]} * in.b[l * size.n + j];
        sum_reversed += in.a[i * size.k + l] * in.b[l * size.n + j];
      }
      reordered[i * size.n + j] = (i + j) % 2 == 0 ? sum_reversed : static_cast<float>(sum);
      // An off-by-one loop bound drops the last term.
      missing_term[i * size.n + j] = static_cast<float>(
          sum - double{in.a[i * size.k + size.k - 1]} * in.b[(size.k - 1) * size.n + j]);
    }
  }
  const MatmulCheckResult fine = check_matmul(in.a, in.b, reordered, reference, size);
  EXPECT_TRUE(fine.passed) << fine.describe();
  EXPECT_GT(fine.max_abs_error, 0.0);
  const MatmulCheckResult bug = check_matmul(in.a, in.b, missing_term, reference, size);
  EXPECT_FALSE(bug.passed);
  // Terms are products of two values in [-1, 1): most are far above the tolerance.
  EXPECT_GT(bug.wrong_count, size.c_elements() * 3 / 4);
}

TEST(MatmulModel, CheckReportsTheFirstWrongElementAndTheLargestError) {
  const MatmulSize size{5, 7, 3};
  Matrices in(size);
  std::vector<float> reference(size.c_elements());
  matmul_reference(in.a, in.b, reference, size);
  std::vector<float> c = reference;
  c[2 * 7 + 4] += 0.5f;                                    // (2, 4)
  c[4 * 7 + 6] = std::numeric_limits<float>::quiet_NaN();  // (4, 6): never written
  const MatmulCheckResult r = check_matmul(in.a, in.b, c, reference, size);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.wrong_count, 2u);
  EXPECT_EQ(r.first_wrong_row, 2u);
  EXPECT_EQ(r.first_wrong_col, 4u);
  EXPECT_FLOAT_EQ(r.expected, reference[2 * 7 + 4]);
  EXPECT_FLOAT_EQ(r.actual, reference[2 * 7 + 4] + 0.5f);
  EXPECT_TRUE(std::isinf(r.max_abs_error));
  EXPECT_NE(r.describe().find("(row 2, col 4)"), std::string::npos) << r.describe();
}

}  // namespace
}  // namespace tl::lessons
