// The moving-data pipeline's traced run on every device (tests/devices/device_under_test.hpp):
// chunks on two streams over several rounds write every element once, with a last chunk shorter
// than the others and a last block with idle threads.

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/07_moving_data/moving_data_runner.hpp"

namespace tl::testing {
namespace {

class MovingDataTrace : public OnEveryDevice {};

TEST_P(MovingDataTrace, CoversEveryElementOnce) {
  struct Case {
    std::uint64_t elements;
    std::uint32_t chunks, rounds, block;
  };
  // 1000 elements in 7 chunks under blocks of 64 (24 idle threads); on a GPU also 2^20 + 7 in 5.
  std::vector<Case> cases = {{1000, 7, 2, 64}};
  if (on_gpu()) cases.push_back({(1u << 20) + 7, 5, 4, 256});
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.elements) + " elements in " + std::to_string(c.chunks));
    lessons::MovingDataParams params;
    params.bytes = 4 * c.elements;
    params.chunks = c.chunks;
    params.streams = 2;
    params.rounds = c.rounds;
    params.block = c.block;
    compute::HostTraceSink sink;
    auto check = compute::trace_moving_data(device(), params, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    const TraceSummary summary =
        summarize(sink.records(), compute::chunk_config(params.elements(), c.block));
    const std::uint64_t blocks = (c.elements + c.block - 1) / c.block;
    EXPECT_EQ(summary.idle_threads, blocks * c.block - c.elements);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
  }
}

THREADLAB_ON_EVERY_DEVICE(MovingDataTrace);

}  // namespace
}  // namespace tl::testing
