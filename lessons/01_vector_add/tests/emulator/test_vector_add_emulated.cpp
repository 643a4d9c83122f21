// The vector-add runner on the emulator: what only the emulator shows (its refusals, its timings,
// a device without pinned memory). The kernels' results and traces on every device are
// lessons/01_vector_add/tests/test_vector_add_kernels.cpp.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/trace.hpp"
#include "forwarding_device.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::compute {
namespace {

TEST(VectorAddEmulatedErrors, InvalidConfigurationIsCudasErrorAndTheDeviceKeepsWorking) {
  auto device = make_emulator_device();
  VectorAddRequest request;
  request.n = 2048;
  request.config = {{1, 1, 1}, {2048, 1, 1}};
  request.time_cpu = false;
  auto report = run_vector_add(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("invalid configuration argument"), std::string::npos)
      << report.message();
  request.config = {{8, 1, 1}, {256, 1, 1}};
  auto again = run_vector_add(*device, request);
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->check->passed);
}

TEST(VectorAddEmulatedErrors, GridsWhoseIntIndexWouldWrapAreRefusedBeforeTheyWriteOutOfBounds) {
  auto device = make_emulator_device();
  VectorAddRequest request;
  request.n = 1000;
  request.config = {{2147483647u, 1, 1}, {2, 1, 1}};  // valid for CUDA, 2^32 - 2 threads along x
  request.time_cpu = false;
  auto report = run_vector_add(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("2^31 - 1"), std::string::npos) << report.message();
  HostTraceSink sink;
  EXPECT_FALSE(trace_vector_add(*device, 1000, request.config, sink).is_ok());
  request.config = {{1u << 21, 1, 1}, {1024, 1, 1}};  // exactly 2^31 threads: every i fits
  request.repeats = 1;
  request.warmup = 0;
  request.n = 16;
  EXPECT_TRUE(lessons::check_vector_add_index_range(request.config).is_ok());
}

TEST(VectorAddEmulatedErrors, ZeroAndOversizedNAreRefusedWithAReason) {
  auto device = make_emulator_device();
  VectorAddRequest request;
  request.n = 0;
  auto zero = run_vector_add(*device, request);
  ASSERT_FALSE(zero.is_ok());
  EXPECT_EQ(zero.error().kind, ErrorKind::kInvalidArgument);
  request.n = std::uint64_t{1} << 40;
  auto huge = run_vector_add(*device, request);
  ASSERT_FALSE(huge.is_ok());
}

TEST(VectorAddEmulatedTimings, ReportsEveryTimingWithItsRepeats) {
  auto device = make_emulator_device();
  VectorAddRequest request;
  request.n = 1 << 16;
  request.config = lessons::covering_config(request.n, 256);
  request.repeats = 5;
  auto report = run_vector_add(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->has_pinned()) << report->pinned_unavailable;
  for (const TimingStats* t :
       {&report->kernel, &report->kernel_vectorized, &report->host_to_device,
        &report->device_to_host, &report->host_to_device_pinned, &report->device_to_host_pinned,
        &report->cpu_single, &report->cpu_multi}) {
    EXPECT_EQ(t->repeats, 5);
    EXPECT_LE(t->min_ms, t->median_ms);
    EXPECT_LE(t->median_ms, t->max_ms);
  }
  EXPECT_GE(report->end_to_end_ms(), report->kernel.median_ms);
}

// A device that has no pinned memory to give: the run keeps the pageable series and says why.
class NoPinnedMemory final : public tl::testing::ForwardingDevice {
 public:
  Result<void*> allocate_pinned_host(std::size_t bytes) override {
    if (++pinned_calls_ == 2) {
      return Error{ErrorKind::kOutOfMemory, "page-locked memory limit reached"};
    }
    return Device::allocate_pinned_host(bytes);
  }
  void release_pinned_host(void* pointer) override {
    ++pinned_released_;
    Device::release_pinned_host(pointer);
  }
  int pinned_released_ = 0;

 private:
  int pinned_calls_ = 0;
};

TEST(VectorAddEmulatedTimings, WithoutPinnedMemoryThePageableSeriesStaysAndTheReportSaysWhy) {
  NoPinnedMemory device;
  VectorAddRequest request;
  request.n = 4096;
  request.config = lessons::covering_config(request.n, 256);
  request.repeats = 1;
  request.time_cpu = false;
  auto report = run_vector_add(device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->has_pinned());
  EXPECT_NE(report->pinned_unavailable.find("page-locked memory limit reached"), std::string::npos)
      << report->pinned_unavailable;
  EXPECT_EQ(device.pinned_released_, 1) << "the buffer it did get is given back";
  EXPECT_FALSE(report->host_to_device.empty());
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed);
}

}  // namespace
}  // namespace tl::compute
