// A traced frame's records reaching OpenGL, timed: here on the emulator's path (host records, a GL
// upload); the GPU tests time the interop and copy paths.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "gl_test_support.hpp"
#include "interop/trace_delivery_timing.hpp"

namespace tl {
namespace {

class TraceDelivery : public testing::GlTest {};

// The first lesson at `n` elements, as the benchmark times it.
std::unique_ptr<compute::Lesson> first_lesson_at(std::uint64_t n) {
  auto lesson = compute::make_lesson(compute::first_lesson_id());
  EXPECT_TRUE(lesson.is_ok());
  EXPECT_TRUE((*lesson)->configure((*lesson)->values_for_size(n)).is_ok());
  return std::move(*lesson);
}

TEST_F(TraceDelivery, TheEmulatorPathDeliversAFrameAndReleasesTheInputs) {
  auto device = compute::make_emulator_device();
  auto lesson = first_lesson_at(1 << 14);
  auto ms = interop::time_trace_delivery(*device, BackendKind::kEmulator, *lesson, 3);
  ASSERT_TRUE(ms.is_ok()) << ms.message();
  EXPECT_GT(*ms, 0.0);
  EXPECT_FALSE(lesson->keep_traced_inputs()) << "the inputs kept for the frames are let go";
}

TEST_F(TraceDelivery, ALaunchTheDeviceRefusesIsAClearError) {
  auto device = compute::make_emulator_device();
  auto lesson = first_lesson_at(1 << 14);
  // More threads to a block than CUDA allows: the launch fails, and so does the timing.
  ASSERT_TRUE(lesson->configure({{"block", "2048"}}).is_ok());
  auto ms = interop::time_trace_delivery(*device, BackendKind::kEmulator, *lesson, 3);
  ASSERT_FALSE(ms.is_ok());
  EXPECT_FALSE(ms.message().empty());
  EXPECT_FALSE(lesson->keep_traced_inputs());
}

}  // namespace
}  // namespace tl
