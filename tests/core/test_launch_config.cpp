#include "core/launch_config.hpp"

#include <gtest/gtest.h>
#include <limits>
#include "core/format.hpp"

namespace tl {
namespace {

TEST(LaunchConfig, AcceptsTheUsualConfigurations) {
  const DeviceLimits limits = standard_cuda_limits();
  EXPECT_TRUE(validate({{4, 1, 1}, {256, 1, 1}}, limits).empty());
  EXPECT_TRUE(validate({{1, 1, 1}, {1024, 1, 1}}, limits).empty());
  EXPECT_TRUE(validate({{64, 64, 1}, {16, 16, 4}}, limits).empty());
  EXPECT_TRUE(validate({{2147483647u, 65535, 65535}, {1, 1, 1}}, limits).empty());
}

TEST(LaunchConfig, RejectsTheArticlesOneBlockOfHalfAMillionThreads) {
  const auto problems = validate({{1, 1, 1}, {500000, 1, 1}}, standard_cuda_limits());
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front().kind, LaunchProblemKind::kTooManyThreadsPerBlock);
  EXPECT_NE(problems.front().message.find("1024"), std::string::npos);
  EXPECT_NE(problems.front().message.find("streaming multiprocessor"), std::string::npos);
}

TEST(LaunchConfig, ChecksTheProductOfBlockDimensionsNotEachOne) {
  // 32 × 32 × 2 = 2048: every dimension is within its own limit, the product is not.
  const auto problems = validate({{1, 1, 1}, {32, 32, 2}}, standard_cuda_limits());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, LaunchProblemKind::kTooManyThreadsPerBlock);
}

TEST(LaunchConfig, ReportsEachAxisLimit) {
  const DeviceLimits limits = standard_cuda_limits();
  auto has = [](const std::vector<LaunchProblem>& problems, LaunchProblemKind kind) {
    for (const auto& p : problems) {
      if (p.kind == kind) return true;
    }
    return false;
  };
  EXPECT_TRUE(has(validate({{1, 1, 1}, {1, 1, 65}}, limits), LaunchProblemKind::kBlockDimTooLarge));
  EXPECT_TRUE(
      has(validate({{1, 65536, 1}, {1, 1, 1}}, limits), LaunchProblemKind::kGridDimTooLarge));
  EXPECT_TRUE(
      has(validate({{1, 1, 65536}, {1, 1, 1}}, limits), LaunchProblemKind::kGridDimTooLarge));
  EXPECT_TRUE(has(validate({{0, 1, 1}, {32, 1, 1}}, limits), LaunchProblemKind::kZeroDimension));
  EXPECT_TRUE(has(validate({{1, 1, 1}, {32, 0, 1}}, limits), LaunchProblemKind::kZeroDimension));
}

TEST(LaunchConfig, ThreadCountsSaturateInsteadOfWrapping) {
  // Every extent within CUDA's limits, yet about 2^73 threads: more than 64 bits can count.
  const LaunchConfig huge{{2147483647, 65535, 65535}, {1024, 1, 1}};
  EXPECT_TRUE(validate(huge, DeviceLimits{}).empty());
  EXPECT_EQ(huge.total_threads(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(format_count(huge.total_threads()), "2^64 or more");
  // Extents whose own product overflows saturate too, and so does every product built on them.
  const Dim3 wide{4294967295u, 4294967295u, 4294967295u};
  EXPECT_EQ(wide.volume(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ((LaunchConfig{wide, {1, 1, 1}}.total_threads()),
            std::numeric_limits<std::uint64_t>::max());
  // Below the limit the count is exact.
  const LaunchConfig large{{2147483647, 65535, 1}, {1024, 1, 1}};
  EXPECT_EQ(large.total_threads(), 2147483647ull * 65535ull * 1024ull);
  EXPECT_EQ(saturating_multiply(0, std::numeric_limits<std::uint64_t>::max()), 0u);
}

TEST(LaunchConfig, UsesTheDevicesOwnLimits) {
  DeviceLimits small = standard_cuda_limits();
  small.max_threads_per_block = 512;
  EXPECT_FALSE(validate({{1, 1, 1}, {1024, 1, 1}}, small).empty());
  EXPECT_TRUE(validate({{1, 1, 1}, {512, 1, 1}}, small).empty());
}

TEST(LaunchConfig, CheckLaunchNamesTheConfiguration) {
  const Status status = check_launch({{1, 1, 1}, {2048, 1, 1}}, standard_cuda_limits());
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(status.message().find("<<<1, 2048>>>"), std::string::npos);
}

TEST(LaunchConfig, FormatsLikeCudaSource) {
  EXPECT_EQ((LaunchConfig{{4, 1, 1}, {256, 1, 1}}.to_string()), "<<<4, 256>>>");
  EXPECT_EQ((LaunchConfig{{8, 8, 1}, {16, 16, 1}}.to_string()), "<<<(8, 8), (16, 16)>>>");
  EXPECT_EQ((LaunchConfig{{2, 2, 2}, {4, 4, 4}}.to_string()), "<<<(2, 2, 2), (4, 4, 4)>>>");
}

TEST(LaunchConfig, BlocksToCoverRoundsUp) {
  EXPECT_EQ(blocks_to_cover(1000, 256), 4u);
  EXPECT_EQ(blocks_to_cover(1024, 256), 4u);
  EXPECT_EQ(blocks_to_cover(1025, 256), 5u);
  EXPECT_EQ(blocks_to_cover(1, 1024), 1u);
  EXPECT_EQ(blocks_to_cover(0, 256), 0u);
  EXPECT_EQ(blocks_to_cover(10, 0), 0u);
  EXPECT_EQ(blocks_to_cover(std::uint64_t{1} << 40, 1), 0xFFFFFFFFu);  // saturates
}

TEST(ParseDim3, AcceptsOneToThreeDimensions) {
  EXPECT_EQ(*parse_dim3("256"), (Dim3{256, 1, 1}));
  EXPECT_EQ(*parse_dim3("16,16"), (Dim3{16, 16, 1}));
  EXPECT_EQ(*parse_dim3("8, 8, 4"), (Dim3{8, 8, 4}));
  EXPECT_EQ(*parse_dim3("16x8"), (Dim3{16, 8, 1}));
  EXPECT_EQ(*parse_dim3("4×4×4"), (Dim3{4, 4, 4}));
  EXPECT_EQ(*parse_dim3("0"), (Dim3{0, 1, 1}));  // parsed; validation rejects it with a reason
}

TEST(ParseDim3, RejectsWhatIsNotADimension) {
  for (const char* bad :
       {"", "abc", "-1", "1,2,3,4", "16,", ",16", "1.5", "16;16", "99999999999"}) {
    const auto parsed = parse_dim3(bad);
    EXPECT_FALSE(parsed.is_ok()) << bad;
    if (!parsed) EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument) << bad;
  }
}

TEST(Dim3, LinearAndUnlinearAreInverse) {
  const Dim3 extent{5, 3, 2};
  for (std::uint64_t i = 0; i < extent.volume(); ++i) {
    const Dim3 p = extent.unlinear(i);
    EXPECT_EQ(extent.linear(p.x, p.y, p.z), i);
  }
  EXPECT_EQ(extent.linear(1, 2, 1), 1u + 5u * (2u + 3u * 1u));
}

}  // namespace
}  // namespace tl
