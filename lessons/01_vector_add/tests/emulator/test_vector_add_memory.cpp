// Lesson 1's kernels on the emulator's memory model: a warp of the plain kernel reads and writes
// 32 neighbouring floats (4 sectors, the ideal); the float4 kernel's warp stores 32 neighbouring
// float4s in one 16-byte access per lane (16 sectors, the ideal for 512 bytes).

#include <gtest/gtest.h>

#include "lesson_memory_figures.hpp"

namespace tl::testing {
namespace {

using memory::AccessKind;
using memory::MemorySpace;

TEST(VectorAddMemory, PlainAndFloat4AccessesAreCoalesced) {
  const auto kernels = record_lesson("vector-add", {{"n", "65536"}, {"block", "256"}});
  const auto* plain = kernel_named(kernels, "vector_add");
  const auto* quads = kernel_named(kernels, "vector_add_vectorized<1, false>");
  ASSERT_TRUE(plain && quads);
  EXPECT_DOUBLE_EQ(row_of(*plain, "c[i] = a[i] + b[i];", MemorySpace::kGlobal, AccessKind::kLoad)
                       ->sectors_per_request(),
                   4.0);
  const auto* store = row_of(*quads, "*p = sum;", MemorySpace::kGlobal, AccessKind::kStore);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->requests, 4u * 8);  // one float4 per thread: one store per warp
  EXPECT_DOUBLE_EQ(store->sectors_per_request(), 16.0);
  EXPECT_DOUBLE_EQ(store->ideal_sectors_per_request(), 16.0);
  // The float4 loads: the host compiler reads each float4 as four 4-byte loads (it keeps the
  // components apart), where nvcc emits one 16-byte load; the bytes moved per warp and component
  // are the same 16 sectors, over four requests instead of one (memory_model.hpp's caveat).
  const ArrayLoads a = loads_from(*quads, "a");
  ASSERT_GT(a.requests, 0u);
  EXPECT_EQ(a.sectors, a.requests * 16);
}

}  // namespace
}  // namespace tl::testing
