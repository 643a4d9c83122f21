// The UI's live relaunch on a real GPU: a traced vector add launched again with the same size
// reuses the inputs already on the device (no new random data, no upload), and still traces every
// launch afresh and checks each new configuration against the CPU.

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using compute::TracedVectorAddInputs;

class TracedRelaunchGpu : public GpuTest {};

TEST_F(TracedRelaunchGpu, ReusedDeviceInputsGiveTheSameTraceAndCheckEachConfiguration) {
  const std::uint64_t n = 1 << 20;
  const LaunchConfig covering{{4096, 1, 1}, {256, 1, 1}};
  const LaunchConfig short_grid{{2048, 1, 1}, {256, 1, 1}};  // half the elements get no thread
  TracedVectorAddInputs inputs;
  for (const LaunchConfig& config : {covering, covering, short_grid, short_grid, covering}) {
    HostTraceSink sink;
    auto check = compute::trace_vector_add(device(), n, config, sink, 1, &inputs);
    ASSERT_TRUE(check.is_ok()) << check.message();
    const TraceSummary summary = summarize(sink.records(), config);
    if (config == covering) {
      EXPECT_TRUE(check->passed) << config.to_string();
      EXPECT_EQ(summary.unwritten, 0u);
    } else {
      // Reused C still holds the covering launch's results: the check must not pass by them.
      EXPECT_FALSE(check->passed) << config.to_string();
      EXPECT_EQ(summary.unwritten, n / 2);
    }
  }
  EXPECT_EQ(inputs.uploads(), 1) << "the inputs went to the device once";
  inputs.release();
}

}  // namespace
}  // namespace tl::testing
