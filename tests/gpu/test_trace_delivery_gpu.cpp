// Interop against the copy path, per traced frame, on the GPU: both deliver (no timing asserted).

#include <gtest/gtest.h>

#include <iostream>

#include "gpu_test_environment.hpp"
#include "interop/trace_delivery_timing.hpp"
#include "platform/egl_context.hpp"

namespace tl {
namespace {

class TraceDeliveryGpu : public testing::GpuTest {};

TEST_F(TraceDeliveryGpu, InteropAndCopyBothDeliverAFrame) {
  auto gl = platform::EglContext::create({.allow_software = false});
  if (!gl) GTEST_SKIP() << "no OpenGL on the GPU: " << gl.message();
  auto interop = interop::time_trace_delivery(device(), BackendKind::kCudaInterop, 1 << 22, 3);
  ASSERT_TRUE(interop.is_ok()) << interop.message();
  auto copy = interop::time_trace_delivery(device(), BackendKind::kCudaCopy, 1 << 22, 3);
  ASSERT_TRUE(copy.is_ok()) << copy.message();
  EXPECT_GT(*interop, 0.0);
  EXPECT_GT(*copy, 0.0);
  std::cout << "traced frame of 2^22: interop " << *interop << " ms, copy " << *copy << " ms\n";
}

}  // namespace
}  // namespace tl
