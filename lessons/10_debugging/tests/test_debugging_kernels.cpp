// Lesson 10's kernels on every device (tests/devices/device_under_test.hpp), launched by their own
// table: the right kernel bit for bit against the CPU, nothing written past n; and the planted
// bugs whose outcome does not depend on timing or on memory nobody wrote, which are the same on
// a GPU as on the emulator. (The race, the divergent barrier and the writes past the end are the
// emulator's tests, tests/emulator/; on a GPU they are compute-sanitizer's,
// docs/data/record-debugging-lesson.sh.)

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "device_under_test.hpp"
#include "lessons/10_debugging/debugging.hpp"
#include "lessons/10_debugging/kernels/debugging_kernels.hpp"

namespace tl::testing {
namespace {

class DebuggingKernels : public OnEveryDevice {
 protected:
  // One launch of `launch` over n inputs into an output of n + 4 floats that starts as `initial`;
  // returns all n + 4.
  std::vector<float> run(kernels::DebuggingKernels::Launch launch, int n, std::uint32_t block,
                         const std::vector<float>& in, float initial) {
    const std::size_t count = static_cast<std::size_t>(n) + 4;
    std::vector<float> out(count, initial);
    auto d_in = compute::allocate_array<float>(device(), in.size());
    auto d_out = compute::allocate_array<float>(device(), count);
    EXPECT_TRUE(d_in.is_ok() && d_out.is_ok());
    if (!d_in.is_ok() || !d_out.is_ok()) return {};
    EXPECT_TRUE(device().copy_to_device(d_in->data(), in.data(), in.size() * 4).is_ok());
    EXPECT_TRUE(device().copy_to_device(d_out->data(), out.data(), count * 4).is_ok());
    const LaunchConfig config{{blocks_to_cover(static_cast<std::uint64_t>(n), block), 1, 1},
                              {block, 1, 1}};
    const Status launched = launch(config, n, d_in->data(), d_out->data());
    EXPECT_TRUE(launched.is_ok()) << launched.message();
    EXPECT_TRUE(device().synchronize().is_ok());
    EXPECT_TRUE(device().copy_to_host(out.data(), d_out->data(), count * 4).is_ok());
    return out;
  }

  const kernels::DebuggingKernels& table() {
    return device().kernels().get<kernels::DebuggingKernels>();
  }
};

std::vector<float> random_inputs(int n) {
  std::vector<float> in(static_cast<std::size_t>(n));
  lessons::fill_random(in, 17u + static_cast<unsigned>(n));
  return in;
}

std::vector<float> reference(const std::vector<float>& in) {
  std::vector<float> out(in.size());
  lessons::difference_reference(in, out);
  return out;
}

TEST_P(DebuggingKernels, TheRightKernelMatchesTheReferenceAndLeavesThePastTheEndAlone) {
  for (const int n : {1, 255, 256, 1000, 4097}) {
    for (const std::uint32_t block : {32u, 256u, 1024u}) {
      const std::vector<float> in = random_inputs(n);
      const std::vector<float> got = run(table().difference, n, block, in, -7.0f);
      ASSERT_EQ(got.size(), static_cast<std::size_t>(n) + 4);
      const std::vector<float> expected = reference(in);
      const lessons::DebuggingCheck check = lessons::check_difference(
          expected, std::span<const float>(got).first(static_cast<std::size_t>(n)), {});
      EXPECT_TRUE(check.passed) << "n = " << n << ", block " << block << ": " << check.describe();
      for (int k = 0; k < 4; ++k) EXPECT_EQ(got[static_cast<std::size_t>(n + k)], -7.0f);
    }
  }
}

// Blocks of 32, the size the index was written for: right. Blocks of 256: the blocks overlap, the
// elements they reach are right, the tail is never written, and the trace counts the overlap.
TEST_P(DebuggingKernels, TheWrongIndexIsRightForBlocksOf32AndOverlapsForLargerOnes) {
  const int n = 1000;
  const std::vector<float> in = random_inputs(n);
  const std::vector<float> expected = reference(in);
  const std::vector<float> by_32 = run(table().wrong_index, n, 32, in, lessons::unwritten_value());
  EXPECT_TRUE(
      lessons::check_difference(expected, std::span<const float>(by_32).first(n), {}).passed);

  const std::vector<float> by_256 =
      run(table().wrong_index, n, 256, in, lessons::unwritten_value());
  const lessons::DebuggingCheck check =
      lessons::check_difference(expected, std::span<const float>(by_256).first(n), {});
  // 4 blocks starting at 0, 32, 64 and 96 reach element 351 at most.
  EXPECT_EQ(check.wrong_count, 648u) << check.describe();
  EXPECT_EQ(check.never_written, 648u) << check.describe();
  EXPECT_EQ(check.first_wrong, 352u);

  compute::HostTraceSink sink;
  auto records = sink.acquire(device(), n);
  ASSERT_TRUE(records.is_ok()) << records.message();
  auto d_in = compute::allocate_array<float>(device(), n);
  auto d_out = compute::allocate_array<float>(device(), n);
  ASSERT_TRUE(d_in.is_ok() && d_out.is_ok());
  ASSERT_TRUE(device().copy_to_device(d_in->data(), in.data(), in.size() * 4).is_ok());
  const Status launched = table().wrong_index_traced({{4, 1, 1}, {256, 1, 1}}, n, d_in->data(),
                                                     d_out->data(), *records);
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  ASSERT_TRUE(device().synchronize().is_ok());
  ASSERT_TRUE(sink.publish(device()).is_ok());
  const auto traced = sink.records();
  ASSERT_EQ(traced.size(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    // Element i lies in the blocks b with 32·b <= i < 32·b + 256, b = 0..3.
    unsigned writers = 0;
    for (int b = 0; b < 4; ++b) writers += (32 * b <= i && i < 32 * b + 256) ? 1u : 0u;
    EXPECT_EQ(traced[static_cast<std::size_t>(i)].writes, writers) << "element " << i;
  }
}

// out[i] += the difference: what out held is added. Given out = 1, every element is one more.
TEST_P(DebuggingKernels, TheAccumulatingKernelAddsWhatOutHeld) {
  const int n = 1000;
  const std::vector<float> in = random_inputs(n);
  const std::vector<float> expected = reference(in);
  const std::vector<float> got = run(table().accumulates, n, 256, in, 1.0f);
  ASSERT_EQ(got.size(), static_cast<std::size_t>(n) + 4);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(got[static_cast<std::size_t>(i)], 1.0f + expected[static_cast<std::size_t>(i)])
        << "element " << i;
  }
}

// With n a multiple of the block no thread skips the barrier's branch: the kernel is right.
TEST_P(DebuggingKernels, TheDivergentBarrierIsRightWhenNoThreadSkipsIt) {
  const int n = 1024;
  const std::vector<float> in = random_inputs(n);
  const std::vector<float> got = run(table().divergent_barrier, n, 256, in, -7.0f);
  ASSERT_EQ(got.size(), static_cast<std::size_t>(n) + 4);
  EXPECT_TRUE(
      lessons::check_difference(reference(in), std::span<const float>(got).first(n), {}).passed);
}

THREADLAB_ON_EVERY_DEVICE(DebuggingKernels);

}  // namespace
}  // namespace tl::testing
