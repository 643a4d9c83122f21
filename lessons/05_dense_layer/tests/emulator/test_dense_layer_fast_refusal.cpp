// The dense layer's fast kernels on the emulator alone: a configuration other than the kernels'
// own is refused by the emulator's kernel table. Their results on every device are
// lessons/05_dense_layer/tests/test_dense_layer_fast.cpp.
#include <gtest/gtest.h>

#include "kernels/kernel_registry.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_kernels.hpp"

namespace tl::compute {
namespace {

TEST(DenseLayerFastEmulatedErrors, AnotherConfigurationIsRefused) {
  const auto& kernels = kernels::emulator_kernels().get<kernels::DenseLayerKernels>();
  const Status wrong =
      kernels.fused_fast({{4, 1, 1}, {32, 8, 1}}, nullptr, nullptr, nullptr, nullptr, 1, 16, 32);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(wrong.message().find("fast dense-layer kernels need"), std::string::npos)
      << wrong.message();
}

}  // namespace
}  // namespace tl::compute
