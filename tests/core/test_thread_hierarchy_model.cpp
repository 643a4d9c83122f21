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

}  // namespace
}  // namespace tl::lessons
