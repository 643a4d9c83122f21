// Lesson 6's ranking of the trees by bank conflicts, on the emulator's memory model, blocks of
// 256 over 4096 floats (16 blocks, 4 recorded). The interleaved tree's active lanes stride 2s
// words inside one warp's 32: distinct banks, no conflict (its cost is divergence). The strided
// tree's thread t works on word 2·s·t: at s = 1 lanes 16 apart share a bank (2-way), then 4-, 8-,
// 8-, 8-, 4- and 2-way as s doubles and fewer lanes work. Sequential addressing has none.

#include <gtest/gtest.h>

#include "lesson_memory_figures.hpp"

namespace tl::testing {
namespace {

using memory::AccessKind;
using memory::MemorySpace;

TEST(ReductionsMemory, OnlyTheStridedTreeHasBankConflicts) {
  const auto kernels = record_lesson("reductions", {{"n", "4096"}, {"block", "256"}});
  const auto* interleaved = kernel_named(kernels, "sum_interleaved");
  const auto* strided = kernel_named(kernels, "sum_strided");
  const auto* sequential = kernel_named(kernels, "sum_sequential");
  ASSERT_TRUE(interleaved && strided && sequential);

  const auto* i_load = row_of(*interleaved, "partial[tid] += partial[tid + s];",
                              MemorySpace::kShared, AccessKind::kLoad);
  const auto* q_load = row_of(*sequential, "partial[tid] += partial[tid + s];",
                              MemorySpace::kShared, AccessKind::kLoad);
  ASSERT_TRUE(i_load && q_load);
  EXPECT_EQ(i_load->bank_conflicts(), 0u);
  EXPECT_EQ(q_load->bank_conflicts(), 0u);

  const auto* s_load = row_of(*strided, "partial[index] += partial[index + s];",
                              MemorySpace::kShared, AccessKind::kLoad);
  const auto* s_store = row_of(*strided, "partial[index] += partial[index + s];",
                               MemorySpace::kShared, AccessKind::kStore);
  ASSERT_TRUE(s_load && s_store);
  // Per block, the store's extra wavefronts over the levels s = 1, 2, ..., 64 (active warps ×
  // (degree - 1)): 4·1 + 2·3 + 7 + 7 + 7 + 3 + 1 = 35; the two loads twice that.
  EXPECT_EQ(s_store->bank_conflicts(), 4u * 35);
  EXPECT_EQ(s_load->bank_conflicts(), 4u * 70);
  EXPECT_EQ(s_store->worst_conflict_degree, 8u);
  // Every tree loads its elements coalesced.
  for (const auto* k : {interleaved, strided, sequential}) {
    const auto* load =
        row_of(*k, "partial[tid] = i < n ? in[i] : 0.0f;", MemorySpace::kGlobal, AccessKind::kLoad);
    ASSERT_NE(load, nullptr);
    EXPECT_DOUBLE_EQ(load->sectors_per_request(), 4.0);
  }
}

}  // namespace
}  // namespace tl::testing
