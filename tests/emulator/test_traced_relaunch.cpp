// A traced relaunch of the same vector add reuses its inputs and its configuration's check (the
// UI relaunches every frame a launch is shown live); anything that changes the answer (the size,
// the configuration) is checked again, and release() gives the device memory back.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::compute {
namespace {

std::uint64_t elements_written(const HostTraceSink& sink) {
  std::uint64_t written = 0;
  for (const TraceRecord& r : sink.records()) written += r.writes > 0 ? 1 : 0;
  return written;
}

TEST(TracedRelaunch, TheSameLaunchReusesItsInputsAndItsCheck) {
  auto device = make_emulator_device();
  TracedVectorAddInputs inputs;
  const LaunchConfig covering{{4, 1, 1}, {256, 1, 1}};
  for (int launch = 0; launch < 3; ++launch) {
    HostTraceSink sink;
    auto check = trace_vector_add(*device, 1000, covering, sink, 1, &inputs);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed);
    EXPECT_EQ(elements_written(sink), 1000u) << "every relaunch traces afresh";
  }
  EXPECT_EQ(inputs.uploads(), 1) << "inputs generated and uploaded once";
}

TEST(TracedRelaunch, AnotherConfigurationIsCheckedAgain) {
  auto device = make_emulator_device();
  TracedVectorAddInputs inputs;
  HostTraceSink sink;
  ASSERT_TRUE(trace_vector_add(*device, 1000, {{4, 1, 1}, {256, 1, 1}}, sink, 1, &inputs)->passed);
  // Three blocks of 256 leave 232 elements unwritten: the reused inputs must not hide that.
  auto short_grid = trace_vector_add(*device, 1000, {{3, 1, 1}, {256, 1, 1}}, sink, 1, &inputs);
  ASSERT_TRUE(short_grid.is_ok());
  EXPECT_FALSE(short_grid->passed);
  EXPECT_EQ(elements_written(sink), 768u);
  auto again = trace_vector_add(*device, 1000, {{3, 1, 1}, {256, 1, 1}}, sink, 1, &inputs);
  EXPECT_FALSE(again->passed) << "the failed check is kept for the same configuration";
  auto back = trace_vector_add(*device, 1000, {{8, 1, 1}, {128, 1, 1}}, sink, 1, &inputs);
  EXPECT_TRUE(back->passed) << "a covering configuration passes again, checked afresh";
  EXPECT_EQ(inputs.uploads(), 1);
}

TEST(TracedRelaunch, AnotherSizeOrAReleaseUploadsAgain) {
  auto device = make_emulator_device();
  TracedVectorAddInputs inputs;
  HostTraceSink sink;
  const LaunchConfig config{{8, 1, 1}, {256, 1, 1}};
  ASSERT_TRUE(trace_vector_add(*device, 2000, config, sink, 1, &inputs)->passed);
  ASSERT_TRUE(trace_vector_add(*device, 1500, config, sink, 1, &inputs)->passed);
  EXPECT_EQ(inputs.uploads(), 2);
  inputs.release();
  ASSERT_TRUE(trace_vector_add(*device, 1500, config, sink, 1, &inputs)->passed);
  EXPECT_EQ(inputs.uploads(), 3);
}

TEST(TracedRelaunch, ARefusedLaunchLeavesTheNextOneToCheckAfresh) {
  auto device = make_emulator_device();
  TracedVectorAddInputs inputs;
  HostTraceSink sink;
  const LaunchConfig good{{4, 1, 1}, {256, 1, 1}};
  ASSERT_TRUE(trace_vector_add(*device, 1000, good, sink, 1, &inputs)->passed);
  // 2048 threads in a block: refused, as CUDA refuses it.
  EXPECT_FALSE(trace_vector_add(*device, 1000, {{1, 1, 1}, {2048, 1, 1}}, sink, 1, &inputs));
  auto after = trace_vector_add(*device, 1000, good, sink, 1, &inputs);
  ASSERT_TRUE(after.is_ok()) << after.message();
  EXPECT_TRUE(after->passed);
}

}  // namespace
}  // namespace tl::compute
