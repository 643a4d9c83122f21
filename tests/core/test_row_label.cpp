#include <gtest/gtest.h>

#include "core/timing/row_label.hpp"

namespace tl {
namespace {

TEST(RowLabel, DeviceRowsLoseTheBackendTheHeaderNamesOnce) {
  EXPECT_EQ(row_label_without_backend("Emulated kernel (CPU)"), "kernel");
  EXPECT_EQ(row_label_without_backend("Emulated end to end, pinned (CPU)"), "end to end, pinned");
  EXPECT_EQ(row_label_without_backend("GPU end to end"), "end to end");
  EXPECT_EQ(row_label_without_backend("copy A, B (emulated)"), "copy A, B");
  EXPECT_EQ(row_label_without_backend("Emulated unfused 1/3: product X · Wᵀ (CPU)"),
            "unfused 1/3: product X · Wᵀ");
  EXPECT_TRUE(names_backend("Emulated kernel (CPU)"));
  EXPECT_TRUE(names_backend("GPU kernel"));
  EXPECT_TRUE(names_backend("copy C (emulated)"));
  EXPECT_EQ(row_label_without_backend("one training step (emulated, CPU)"), "one training step");
}

TEST(RowLabel, HostRowsAndPlainNamesStayAsTheyAre) {
  EXPECT_EQ(row_label_without_backend("CPU, 1 thread"), "CPU, 1 thread");
  EXPECT_EQ(row_label_without_backend("CPU, all threads"), "CPU, all threads");
  EXPECT_EQ(row_label_without_backend("cuBLAS SGEMM"), "cuBLAS SGEMM");
  EXPECT_EQ(row_label_without_backend("copy A, B host → device"), "copy A, B host → device");
  EXPECT_FALSE(names_backend("CPU, 1 thread"));
  // A name that is nothing but the backend keeps it, rather than becoming empty.
  EXPECT_EQ(row_label_without_backend("GPU "), "GPU ");
}

}  // namespace
}  // namespace tl
