#include "core/launch_field_limits.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

lessons::ParamSpec spec(std::string name, lessons::ParamKind kind) {
  lessons::ParamSpec s;
  s.name = std::move(name);
  s.kind = kind;
  return s;
}

TEST(LaunchFieldLimits, OnlyTheGridAndBlockDimensionsAreLaunchFields) {
  EXPECT_EQ(launch_field_of(spec("grid", lessons::ParamKind::kDim3)), LaunchField::kGrid);
  EXPECT_EQ(launch_field_of(spec("block", lessons::ParamKind::kDim3)), LaunchField::kBlock);
  EXPECT_FALSE(launch_field_of(spec("n", lessons::ParamKind::kCount)));
  EXPECT_FALSE(launch_field_of(spec("tile", lessons::ParamKind::kChoice)));
  // A count that happened to be called "block" is not a dimension the device bounds.
  EXPECT_FALSE(launch_field_of(spec("block", lessons::ParamKind::kCount)));
  EXPECT_FALSE(
      describe_field_limit(spec("grid_stride", lessons::ParamKind::kFlag), standard_cuda_limits()));
}

TEST(LaunchFieldLimits, TheGridFieldShowsTheMaximumGridPerDimension) {
  const auto limit =
      describe_field_limit(spec("grid", lessons::ParamKind::kDim3), standard_cuda_limits());
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->brief, "max 2^31-1 × 65,535 × 65,535");
  EXPECT_EQ(limit->sentence,
            "Device limit: at most 2,147,483,647 blocks in x, 65,535 in y and 65,535 in z");
}

TEST(LaunchFieldLimits, TheBlockFieldShowsItsDimensionsAndTheThreadsPerBlock) {
  const auto limit =
      describe_field_limit(spec("block", lessons::ParamKind::kDim3), standard_cuda_limits());
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->brief, "max 1,024 × 1,024 × 64, 1,024 in all");
  EXPECT_EQ(limit->sentence,
            "Device limit: at most 1,024 threads in x, 1,024 in y and 64 in z, and 1,024 threads "
            "per block in all (x · y · z)");
}

TEST(LaunchFieldLimits, TheTextFollowsTheDevicesOwnLimits) {
  DeviceLimits small;
  small.max_threads_per_block = 512;
  small.max_block_dim = {512, 512, 64};
  small.max_grid_dim = {65535, 65535, 1};
  EXPECT_EQ(describe_field_limit(spec("block", lessons::ParamKind::kDim3), small)->brief,
            "max 512 × 512 × 64, 512 in all");
  // 65,535 is not shortened: only limits past a million read better as a power of two.
  EXPECT_EQ(describe_field_limit(spec("grid", lessons::ParamKind::kDim3), small)->brief,
            "max 65,535 × 65,535 × 1");
}

// The note of the launch panel and of `run --block`: a kernel that sizes its own blocks launches
// another block than the one typed.
TEST(LaunchFieldLimits, ABlockOtherThanTheOneLaunchedIsNotUsed) {
  EXPECT_EQ(block_not_used("16,16", {8, 8, 1}), (Dim3{8, 8, 1}));
  EXPECT_EQ(block_not_used("256", {128, 1, 1}), (Dim3{128, 1, 1}));
  // The same block in other words is the one launched.
  EXPECT_EQ(block_not_used("16x16", {16, 16, 1}), std::nullopt);
  EXPECT_EQ(block_not_used("256,1,1", {256, 1, 1}), std::nullopt);
  // Text that is no block says so where it is typed, not here.
  EXPECT_EQ(block_not_used("sixteen", {16, 1, 1}), std::nullopt);
}

}  // namespace
}  // namespace tl
