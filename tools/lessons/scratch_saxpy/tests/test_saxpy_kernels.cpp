// The SAXPY kernel on every device (tests/devices/device_under_test.hpp), launched by its own
// table: y = a·x + y in place, bit for bit against the CPU reference, on sizes that are no
// multiple of the block, and nothing written past n.

#include <gtest/gtest.h>

#include <vector>

#include "core/lessons/random_inputs.hpp"
#include "device_under_test.hpp"
#include "lessons/12_saxpy/kernels/saxpy_kernels.hpp"
#include "lessons/12_saxpy/saxpy.hpp"

namespace tl::testing {
namespace {

class SaxpyKernels : public OnEveryDevice {};

TEST_P(SaxpyKernels, MatchTheReferenceInPlaceAndLeaveThePastTheEndAlone) {
  for (const int n : {1, 255, 1000, 4097}) {
    const std::size_t count = static_cast<std::size_t>(n) + 4;  // 4 floats past n stay as they are
    std::vector<float> x(count), y(count);
    lessons::fill_random(x, 11u + static_cast<unsigned>(n));
    lessons::fill_random(y, 13u + static_cast<unsigned>(n));
    std::vector<float> expected = y;
    lessons::saxpy_reference(lessons::kSaxpyA, std::span<const float>(x).first(n),
                             std::span<float>(expected).first(n));
    auto dx = compute::allocate_array<float>(device(), count);
    auto dy = compute::allocate_array<float>(device(), count);
    ASSERT_TRUE(dx.is_ok() && dy.is_ok());
    ASSERT_TRUE(device().copy_to_device(dx->data(), x.data(), count * 4).is_ok());
    ASSERT_TRUE(device().copy_to_device(dy->data(), y.data(), count * 4).is_ok());
    const LaunchConfig config{{static_cast<std::uint32_t>((n + 255) / 256), 1, 1}, {256, 1, 1}};
    const Status launched = device().kernels().get<kernels::SaxpyKernels>().saxpy(
        config, n, lessons::kSaxpyA, dx->data(), dy->data(), dy->data());
    ASSERT_TRUE(launched.is_ok()) << launched.message();
    ASSERT_TRUE(device().synchronize().is_ok());
    std::vector<float> got(count);
    ASSERT_TRUE(device().copy_to_host(got.data(), dy->data(), count * 4).is_ok());
    const lessons::SaxpyCheck check = lessons::check_saxpy(expected, got);
    EXPECT_TRUE(check.passed) << "n = " << n << ": " << check.describe();
  }
}

THREADLAB_ON_EVERY_DEVICE(SaxpyKernels);

}  // namespace
}  // namespace tl::testing
