#include "core/memory/load_budget.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tl::memory {
namespace {

constexpr std::uint64_t kA = 0x10000;  // two arrays, 256-byte aligned as cudaMalloc's
constexpr std::uint64_t kB = 0x20000;

LaneRecord load(std::uint64_t block, std::uint32_t thread, std::uint64_t address,
                std::uint32_t bytes = 4) {
  return {block, thread, 0, address, bytes, MemorySpace::kGlobal, AccessKind::kLoad};
}

// The naive matrix product's A loads in one 4 × 4 block over K = 3: thread (x, y) reads row y,
// every k, so each of the 4 × 3 elements of the block's rows is loaded by the 4 threads of its
// row: 48 element loads of 12 distinct elements, 4 per element.
TEST(LoadBudget, NaiveProductLoadsEachElementOfItsRowsOncePerThreadOfTheRow) {
  constexpr std::uint64_t kK = 3;
  std::vector<LaneRecord> records;
  for (std::uint32_t y = 0; y < 4; ++y) {
    for (std::uint32_t x = 0; x < 4; ++x) {
      for (std::uint64_t k = 0; k < kK; ++k)
        records.push_back(load(0, y * 4 + x, kA + 4 * (y * kK + k)));
    }
  }
  const std::vector<ArrayExtent> arrays{{kA, 4 * 4 * kK, 4}};
  const std::vector<LoadBudget> b = load_budgets(records, arrays);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].element_loads, 48u);
  EXPECT_EQ(b[0].block_elements, 12u);
  EXPECT_EQ(b[0].blocks, 1u);
  EXPECT_DOUBLE_EQ(b[0].loads_per_element(), 4.0);
}

// Distinct elements are counted per block: two blocks loading the same 8 elements once each
// load each element once (16 loads of 8 + 8 block elements), not twice.
TEST(LoadBudget, TwoBlocksReadingTheSameElementsEachLoadThemOnce) {
  std::vector<LaneRecord> records;
  for (std::uint64_t block = 0; block < 2; ++block) {
    for (std::uint32_t t = 0; t < 8; ++t) records.push_back(load(block, t, kA + 4 * t));
  }
  const std::vector<ArrayExtent> arrays{{kA, 64, 4}};
  const LoadBudget b = load_budgets(records, arrays).at(0);
  EXPECT_EQ(b.element_loads, 16u);
  EXPECT_EQ(b.block_elements, 16u);
  EXPECT_EQ(b.blocks, 2u);
  EXPECT_DOUBLE_EQ(b.loads_per_element(), 1.0);
}

// A weighted average: block 0 loads 4 elements 3 times each (12 loads), block 1 loads 2 elements
// once each: 14 loads over 4 + 2 block elements = 7 / 3.
TEST(LoadBudget, TheAverageWeighsEachBlockByTheElementsItTouched) {
  std::vector<LaneRecord> records;
  for (int repeat = 0; repeat < 3; ++repeat) {
    for (std::uint32_t t = 0; t < 4; ++t) records.push_back(load(0, t, kA + 4 * t));
  }
  records.push_back(load(1, 0, kA + 40));
  records.push_back(load(1, 1, kA + 44));
  const std::vector<ArrayExtent> arrays{{kA, 64, 4}};
  const LoadBudget b = load_budgets(records, arrays).at(0);
  EXPECT_EQ(b.element_loads, 14u);
  EXPECT_EQ(b.block_elements, 6u);
  EXPECT_DOUBLE_EQ(b.loads_per_element(), 14.0 / 6.0);
}

// A float4 load covers four elements: 8 lanes loading 16 bytes each over 32 floats is 32 element
// loads of 32 elements; a 16-byte load that starts at the last 8 bytes of the array counts the
// two elements inside it.
TEST(LoadBudget, AWideLoadCountsEveryElementItCoversInsideTheArray) {
  std::vector<LaneRecord> records;
  for (std::uint32_t t = 0; t < 8; ++t) records.push_back(load(0, t, kA + 16 * t, 16));
  const std::vector<ArrayExtent> arrays{{kA, 128, 4}};
  const LoadBudget b = load_budgets(records, arrays).at(0);
  EXPECT_EQ(b.element_loads, 32u);
  EXPECT_EQ(b.block_elements, 32u);

  const std::vector<LaneRecord> overhang{load(0, 0, kA + 120, 16)};
  const LoadBudget edge = load_budgets(overhang, arrays).at(0);
  EXPECT_EQ(edge.element_loads, 2u);
  EXPECT_EQ(edge.block_elements, 2u);
}

// Only global loads of the arrays given count: stores, shared memory and other addresses do not,
// and each array gets its own figure in the order given.
TEST(LoadBudget, StoresSharedMemoryAndOtherAddressesAreNotLoadsOfTheArrays) {
  std::vector<LaneRecord> records{load(0, 0, kA), load(0, 1, kB), load(0, 2, kB),
                                  load(0, 3, 0x90000)};
  records.push_back({0, 4, 0, kA + 4, 4, MemorySpace::kGlobal, AccessKind::kStore});
  records.push_back({0, 5, 0, 8, 4, MemorySpace::kShared, AccessKind::kLoad});
  const std::vector<ArrayExtent> arrays{{kA, 64, 4}, {kB, 64, 4}, {0x30000, 64, 4}};
  const std::vector<LoadBudget> b = load_budgets(records, arrays);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].element_loads, 1u);
  EXPECT_EQ(b[1].element_loads, 2u);
  EXPECT_EQ(b[1].block_elements, 1u);
  EXPECT_DOUBLE_EQ(b[1].loads_per_element(), 2.0);
  EXPECT_EQ(b[2].element_loads, 0u);
  EXPECT_EQ(b[2].blocks, 0u);
  EXPECT_DOUBLE_EQ(b[2].loads_per_element(), 0.0) << "nothing loaded: no figure";
}

}  // namespace
}  // namespace tl::memory
