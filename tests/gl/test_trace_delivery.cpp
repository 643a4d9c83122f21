// A traced frame's records reaching OpenGL, timed: here on the emulator's path (host records, a GL
// upload); the GPU tests time the interop and copy paths.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "gl_test_support.hpp"
#include "interop/trace_delivery_timing.hpp"

namespace tl {
namespace {

class TraceDelivery : public testing::GlTest {};

TEST_F(TraceDelivery, TheEmulatorPathDeliversAFrame) {
  auto device = compute::make_emulator_device();
  auto ms = interop::time_trace_delivery(*device, BackendKind::kEmulator, 1 << 14, 3);
  ASSERT_TRUE(ms.is_ok()) << ms.message();
  EXPECT_GT(*ms, 0.0);
}

TEST_F(TraceDelivery, NothingToDeliverIsAClearError) {
  auto device = compute::make_emulator_device();
  auto ms = interop::time_trace_delivery(*device, BackendKind::kEmulator, 0, 3);
  ASSERT_FALSE(ms.is_ok());
  EXPECT_EQ(ms.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace tl
