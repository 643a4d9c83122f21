// Interop against the copy path, per traced frame, on the GPU: both deliver (no timing asserted).

#include <gtest/gtest.h>

#include <iostream>

#include "compute/lessons/lesson_registry.hpp"
#include "gpu_test_environment.hpp"
#include "interop/trace_delivery_timing.hpp"
#include "platform/egl_context.hpp"

namespace tl {
namespace {

class TraceDeliveryGpu : public testing::GpuTest {};

TEST_F(TraceDeliveryGpu, InteropAndCopyBothDeliverAFrame) {
  auto gl = platform::EglContext::create({.allow_software = false});
  if (!gl) GTEST_SKIP() << "no OpenGL on the GPU: " << gl.message();
  auto lesson = compute::make_lesson(compute::first_lesson_id());
  ASSERT_TRUE(lesson.is_ok());
  ASSERT_TRUE((*lesson)->configure((*lesson)->values_for_size(1 << 22)).is_ok());
  auto interop = interop::time_trace_delivery(device(), BackendKind::kCudaInterop, **lesson, 3);
  ASSERT_TRUE(interop.is_ok()) << interop.message();
  auto copy = interop::time_trace_delivery(device(), BackendKind::kCudaCopy, **lesson, 3);
  ASSERT_TRUE(copy.is_ok()) << copy.message();
  EXPECT_GT(*interop, 0.0);
  EXPECT_GT(*copy, 0.0);
  std::cout << "traced frame of 2^22: interop " << *interop << " ms, copy " << *copy << " ms\n";
}

}  // namespace
}  // namespace tl
