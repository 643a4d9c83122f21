#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <vector>

#include "lessons/01_vector_add/vector_add.hpp"

namespace tl::lessons {
namespace {

TEST(ThreadHierarchyModel, CountsEveryThreadOfA3DGridOf3DBlocks) {
  auto threads = count_grid_threads({{3, 5, 7}, {2, 4, 8}});
  ASSERT_TRUE(threads.is_ok()) << threads.message();
  EXPECT_EQ(*threads, 3u * 5 * 7 * 2 * 4 * 8);
}

TEST(ThreadHierarchyModel, AProductOfLegalDimensionsCanOverflowAndIsRefused) {
  // Every factor is within CUDA's limits, but the product is about 2^73 threads.
  const LaunchConfig huge{{2147483647u, 65535, 65535}, {1024, 1, 1}};
  EXPECT_TRUE(validate(huge, standard_cuda_limits()).empty());
  auto threads = count_grid_threads(huge);
  ASSERT_FALSE(threads.is_ok());
  EXPECT_NE(threads.message().find("64-bit"), std::string::npos) << threads.message();
  // Exactly 2^62 threads is the largest count accepted.
  auto limit = count_grid_threads({{1u << 30, 1u << 16, 1u << 16}, {1, 1, 1}});
  ASSERT_TRUE(limit.is_ok()) << limit.message();
  EXPECT_EQ(*limit, kThreadHierarchyMaxThreads);
  EXPECT_FALSE(count_grid_threads({{1u << 30, 1u << 16, 1u << 16}, {2, 1, 1}}).is_ok());
  ThreadHierarchyParams params;
  params.config = huge;
  EXPECT_EQ(validate_thread_hierarchy(params, 0).error().kind, ErrorKind::kInvalidArgument);
}

TEST(ThreadHierarchyModel, SizeValidation) {
  ThreadHierarchyParams params;
  params.n = 0;
  EXPECT_FALSE(validate_thread_hierarchy(params, 0).is_ok());
  params.n = kThreadHierarchyMaxN + 1;
  EXPECT_FALSE(validate_thread_hierarchy(params, 0).is_ok());
  params.n = 1000;  // 8000 bytes for in and out
  EXPECT_TRUE(validate_thread_hierarchy(params, 8000).is_ok());
  params.n = 1001;
  const Status too_big = validate_thread_hierarchy(params, 8000);
  ASSERT_FALSE(too_big.is_ok());
  EXPECT_EQ(too_big.error().kind, ErrorKind::kOutOfMemory);
  EXPECT_NE(too_big.message().find("largest N that fits is 1000"), std::string::npos);
}

TEST(ThreadHierarchyModel, GlobalIndexIsABijectionOverThe3DGrid) {
  const LaunchConfig config{{3, 2, 2}, {4, 3, 2}};
  const std::uint64_t threads = config.total_threads();
  std::set<std::uint64_t> seen;
  for (std::uint32_t bz = 0; bz < 2; ++bz)
    for (std::uint32_t by = 0; by < 2; ++by)
      for (std::uint32_t bx = 0; bx < 3; ++bx)
        for (std::uint32_t tz = 0; tz < 2; ++tz)
          for (std::uint32_t ty = 0; ty < 3; ++ty)
            for (std::uint32_t tx = 0; tx < 4; ++tx) {
              const ThreadPosition position{{bx, by, bz}, {tx, ty, tz}};
              const std::uint64_t global = global_thread_index(config, position);
              ASSERT_LT(global, threads);
              seen.insert(global);
              EXPECT_EQ(locate_thread(config, global), position) << global;
            }
  EXPECT_EQ(seen.size(), threads);
  // Block (1, 0, 0) starts right after block 0's 24 threads; threadIdx.y steps by blockDim.x.
  EXPECT_EQ(global_thread_index(config, {{1, 0, 0}, {0, 0, 0}}), 24u);
  EXPECT_EQ(global_thread_index(config, {{0, 0, 0}, {0, 1, 0}}), 4u);
  EXPECT_EQ(global_thread_index(config, {{0, 1, 0}, {0, 0, 0}}), 3u * 24u);
}

TEST(ThreadHierarchyModel, OwnerOfAnElementWithAndWithoutAGridStrideLoop) {
  ThreadHierarchyParams params;
  params.n = 1000;
  params.config = {{3, 1, 1}, {128, 1, 1}};  // 384 threads
  const std::uint64_t threads = 384;
  params.grid_stride = false;
  auto first = owner_of_element(params, threads, 200);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->global_thread, 200u);
  EXPECT_EQ(first->position, (ThreadPosition{{1, 0, 0}, {72, 0, 0}}));
  EXPECT_EQ(first->pass, 0u);
  EXPECT_FALSE(owner_of_element(params, threads, 384).has_value());   // the grid ran out
  EXPECT_FALSE(owner_of_element(params, threads, 1000).has_value());  // past n

  params.grid_stride = true;
  auto strided = owner_of_element(params, threads, 900);
  ASSERT_TRUE(strided.has_value());
  EXPECT_EQ(strided->global_thread, 900u - 768u);
  EXPECT_EQ(strided->pass, 2u);
  EXPECT_EQ(grid_stride_passes(1000, 384), 3u);
  EXPECT_EQ(grid_stride_passes(768, 384), 2u);
  EXPECT_EQ(grid_stride_passes(1, 384), 1u);
}

TEST(ThreadHierarchyModel, CheckAcceptsTheReferenceAndNamesTheFirstWrongElement) {
  std::vector<float> in(100), out(100);
  fill_random(in, 5);
  thread_hierarchy_reference(in, out);
  EXPECT_FLOAT_EQ(out[3], 2.0f * in[3] + 1.0f);
  const ElementCheck good = check_thread_hierarchy(in, out);
  EXPECT_TRUE(good.passed) << good.describe();
  EXPECT_NE(good.describe().find("out = 2 * in + 1"), std::string::npos);
  out[42] = std::numeric_limits<float>::quiet_NaN();  // never written
  out[77] += 1.0f;
  const ElementCheck bad = check_thread_hierarchy(in, out);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.wrong_count, 2u);
  EXPECT_EQ(bad.first_wrong, 42u);
  EXPECT_NE(bad.describe().find("index 42"), std::string::npos) << bad.describe();
}

TEST(ThreadHierarchyModel, BranchRulesRoundTripThroughTheirNames) {
  for (BranchRule rule : {BranchRule::kNone, BranchRule::kByThread, BranchRule::kByWarp}) {
    EXPECT_EQ(parse_branch_rule(to_string(rule)), rule);
  }
  EXPECT_FALSE(parse_branch_rule("by-lane").has_value());
}

TEST(ThreadHierarchyModel, ByThreadSplitsEveryWarpAndByWarpNone) {
  // Threads 0..63 of a block: by thread, 0, 1, 0, 1 ...; by warp, 32 zeros then 32 ones.
  EXPECT_EQ(branch_side(BranchRule::kByThread, 6), 0u);
  EXPECT_EQ(branch_side(BranchRule::kByThread, 7), 1u);
  EXPECT_EQ(branch_side(BranchRule::kByWarp, 31), 0u);
  EXPECT_EQ(branch_side(BranchRule::kByWarp, 32), 1u);
  EXPECT_EQ(branch_side(BranchRule::kByWarp, 64), 0u);
  EXPECT_EQ(branch_side(BranchRule::kNone, 33), 0u);

  const WarpAtBranch split = warp_at_branch(BranchRule::kByThread, 256, 3);
  EXPECT_EQ(split.lanes_with_threads, 32u);
  EXPECT_EQ(split.lanes_on_side[0], 16u);
  EXPECT_EQ(split.lanes_on_side[1], 16u);
  EXPECT_EQ(split.passes(), 2u);
  const WarpAtBranch whole = warp_at_branch(BranchRule::kByWarp, 256, 3);
  EXPECT_EQ(whole.lanes_on_side[0], 0u);
  EXPECT_EQ(whole.lanes_on_side[1], 32u);
  EXPECT_EQ(whole.passes(), 1u);
  // A warp past the block's end holds no thread and never reaches the branch.
  EXPECT_EQ(warp_at_branch(BranchRule::kByWarp, 64, 2).passes(), 0u);
}

TEST(ThreadHierarchyModel, IdleLaneSlotsOfABlockAtTheBranch) {
  // 256 threads by thread: 8 warps, 16 passes of which half the lanes idle.
  const BlockAtBranch by_thread = block_at_branch(BranchRule::kByThread, 256);
  EXPECT_EQ(by_thread.warps, 8u);
  EXPECT_EQ(by_thread.warp_passes, 16u);
  EXPECT_DOUBLE_EQ(by_thread.idle_fraction(), 0.5);
  const BlockAtBranch by_warp = block_at_branch(BranchRule::kByWarp, 256);
  EXPECT_EQ(by_warp.warp_passes, 8u);
  EXPECT_EQ(by_warp.idle_lane_slots, 0u);
  // 100 threads by warp: warps 0 and 2 take side 0, warp 1 side 1, and the last warp's 4 threads
  // leave 28 lanes idle in its one pass.
  const BlockAtBranch partial = block_at_branch(BranchRule::kByWarp, 100);
  EXPECT_EQ(partial.warps, 4u);
  EXPECT_EQ(partial.warp_passes, 4u);
  EXPECT_EQ(partial.idle_lane_slots, 28u);
  // 100 threads by thread: the last warp's 4 threads split 2 and 2, two passes of 30 idle lanes.
  const BlockAtBranch partial_split = block_at_branch(BranchRule::kByThread, 100);
  EXPECT_EQ(partial_split.warp_passes, 8u);
  EXPECT_EQ(partial_split.idle_lane_slots, 3u * 32 + 2u * 30);
}

TEST(ThreadHierarchyModel, BranchReferencePicksTheSideByTheElementsThreadInItsBlock) {
  const std::vector<float> in = {0.5f, -0.25f, 0.75f, 0.125f, 1.0f, -1.0f};
  std::vector<float> out(in.size());
  // Blocks of 3 threads by thread: elements 0, 2, 3, 5 are threads 0, 2, 0, 2 (even).
  branch_reference(BranchRule::kByThread, 3, in, out);
  EXPECT_EQ(out[0], branch_even_side(in[0]));
  EXPECT_EQ(out[1], branch_odd_side(in[1]));
  EXPECT_EQ(out[2], branch_even_side(in[2]));
  EXPECT_EQ(out[3], branch_even_side(in[3]));
  EXPECT_EQ(out[4], branch_odd_side(in[4]));
  EXPECT_EQ(out[5], branch_even_side(in[5]));
  // The two sides compute different functions, so a kernel that took the wrong side fails.
  EXPECT_NE(branch_even_side(0.5f), branch_odd_side(0.5f));
  ThreadHierarchyParams params;
  params.config = {{2, 1, 1}, {3, 1, 1}};
  params.branch = BranchRule::kByThread;
  EXPECT_TRUE(check_thread_hierarchy(params, in, out).passed);
  params.branch = BranchRule::kByWarp;  // every thread of a 3-thread block is in warp 0
  const ElementCheck wrong = check_thread_hierarchy(params, in, out);
  EXPECT_FALSE(wrong.passed);
  EXPECT_EQ(wrong.first_wrong, 1u);
}

}  // namespace
}  // namespace tl::lessons
