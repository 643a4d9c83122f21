// On a GPU that drives a display, a launch predicted to outlast the watchdog is refused before it
// starts. The GPU test machine has no display (and no watchdog), so a laptop GPU is stood in for
// here: the emulator, presented as a display GPU with a laptop's SMs, clocks and bandwidth.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "forwarding_device.hpp"

namespace tl::compute {
namespace {

class DisplayGpu final : public tl::testing::ForwardingDevice {
 public:
  explicit DisplayGpu(bool watchdog) : info_(inner().info()) {
    info_.name = "Laptop GPU (stand-in)";
    info_.compute_major = 8;
    info_.compute_minor = 6;
    info_.multiprocessors = 20;
    info_.clock_khz = 1'500'000;
    info_.memory_clock_khz = 7'000'000;
    info_.memory_bus_width_bits = 192;
    info_.kernel_timeout = watchdog;
  }
  bool is_gpu() const override { return true; }
  const DeviceInfo& info() const override { return info_; }

 private:
  DeviceInfo info_;
};

std::unique_ptr<Lesson> lesson_with(const std::string& id, const lessons::ParamValues& values) {
  auto lesson = make_lesson(id);
  EXPECT_TRUE(lesson.is_ok()) << lesson.message();
  const Status configured = (*lesson)->configure(values);
  EXPECT_TRUE(configured.is_ok()) << configured.message();
  return std::move(*lesson);
}

TEST(WatchdogRefusal, AHugeNaiveMultiplyIsRefusedOnADisplayGpu) {
  DisplayGpu display(true);
  auto huge = lesson_with(
      "matmul",
      {{"m", "8192"}, {"n", "8192"}, {"k", "8192"}, {"kernel", "naive"}, {"block", "16,16"}});
  const Status refused = huge->check_watchdog(display);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(refused.message().find("matmul_naive"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("watchdog"), std::string::npos) << refused.message();

  auto small = lesson_with(
      "matmul",
      {{"m", "256"}, {"n", "256"}, {"k", "256"}, {"kernel", "naive"}, {"block", "16,16"}});
  EXPECT_TRUE(small->check_watchdog(display).is_ok());
}

TEST(WatchdogRefusal, WithoutADisplayOrOnTheEmulatorEverythingRuns) {
  auto huge = lesson_with(
      "matmul",
      {{"m", "8192"}, {"n", "8192"}, {"k", "8192"}, {"kernel", "naive"}, {"block", "16,16"}});
  DisplayGpu compute_only(false);
  EXPECT_TRUE(huge->check_watchdog(compute_only).is_ok());
  auto emulator = make_emulator_device();
  EXPECT_TRUE(huge->check_watchdog(*emulator).is_ok()) << "the emulator has its own budget";
}

TEST(WatchdogRefusal, TheDenseLayerChecksItsProductButNotCublas) {
  DisplayGpu display(true);
  auto tiled =
      lesson_with("dense-layer",
                  {{"batch", "4096"}, {"inputs", "8192"}, {"neurons", "8192"}, {"path", "fused"}});
  EXPECT_FALSE(tiled->check_watchdog(display).is_ok());
  auto cublas =
      lesson_with("dense-layer",
                  {{"batch", "4096"}, {"inputs", "8192"}, {"neurons", "8192"}, {"path", "cublas"}});
  EXPECT_TRUE(cublas->check_watchdog(display).is_ok());
}

}  // namespace
}  // namespace tl::compute
