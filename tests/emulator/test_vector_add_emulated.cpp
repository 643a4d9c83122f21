// The vector-add kernels on the emulator, through the same runner the app uses.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/trace.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::compute {
namespace {

struct Case {
  std::uint64_t n;
  LaunchConfig config;
};

// vector_add_vectorized against a float64 reference (the sum of two floats, rounded once, as the
// kernel's float add rounds it) on sizes that are not multiples of 4 or of the block, with A, B and
// C shifted by 0-3 floats, so that float4 accesses are misaligned and the element-wise path runs.
// The floats on either side of C must stay as they were.
void expect_vectorized_matches_float64(Device& device) {
  for (const int n : {1, 3, 4, 5, 255, 1001, 4099, (1 << 20) + 7}) {
    for (const int shift : {0, 1, 2, 3}) {
      const std::size_t count = static_cast<std::size_t>(n) + 8;
      std::vector<float> a(count), b(count), c(count, -7.0f);
      lessons::fill_random(a, 3u + static_cast<unsigned>(n));
      lessons::fill_random(b, 5u + static_cast<unsigned>(n));
      auto da = allocate_array<float>(device, count);
      auto db = allocate_array<float>(device, count);
      auto dc = allocate_array<float>(device, count);
      ASSERT_TRUE(da.is_ok() && db.is_ok() && dc.is_ok());
      ASSERT_TRUE(device.copy_to_device(da->data(), a.data(), count * 4).is_ok());
      ASSERT_TRUE(device.copy_to_device(db->data(), b.data(), count * 4).is_ok());
      ASSERT_TRUE(device.copy_to_device(dc->data(), c.data(), count * 4).is_ok());
      const Status launched = device.kernels().get<kernels::VectorAddKernels>().add_vectorized(
          lessons::vectorized_vector_add_config(static_cast<std::uint64_t>(n)), da->data() + shift,
          db->data() + shift, dc->data() + shift, n);
      ASSERT_TRUE(launched.is_ok()) << launched.message();
      ASSERT_TRUE(device.synchronize().is_ok());
      ASSERT_TRUE(device.copy_to_host(c.data(), dc->data(), count * 4).is_ok());
      long wrong = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const bool inside = i >= static_cast<std::size_t>(shift) &&
                            i < static_cast<std::size_t>(shift) + static_cast<std::size_t>(n);
        const float expected =
            inside ? static_cast<float>(static_cast<double>(a[i]) + static_cast<double>(b[i]))
                   : -7.0f;
        if (!(c[i] == expected)) ++wrong;
      }
      EXPECT_EQ(wrong, 0) << "n = " << n << ", shifted by " << shift << " floats";
    }
  }
}

class VectorAddEmulated : public ::testing::TestWithParam<Case> {
 protected:
  std::unique_ptr<Device> device_ = make_emulator_device();
};

TEST_P(VectorAddEmulated, MatchesTheCpuReferenceWhenTheGridCoversN) {
  const Case c = GetParam();
  VectorAddRequest request;
  request.n = c.n;
  request.config = c.config;
  request.repeats = 1;
  request.warmup = 0;
  request.time_cpu = false;
  auto report = run_vector_add(*device_, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  const bool covers = c.config.total_threads() >= c.n;
  EXPECT_EQ(report->check->passed, covers) << report->check->describe();
  if (!covers) {
    // The first element no thread reached is the first one past the grid.
    EXPECT_EQ(report->check->first_wrong, c.config.total_threads());
    EXPECT_EQ(report->check->wrong_count, c.n - c.config.total_threads());
  }
  EXPECT_FALSE(report->on_gpu);
  EXPECT_EQ(report->kernel.repeats, 1);
  // The vectorized kernel runs on its own grid, which always covers N.
  ASSERT_TRUE(report->check_vectorized.has_value());
  EXPECT_TRUE(report->check_vectorized->passed) << report->check_vectorized->describe();
}

TEST(VectorAddEmulatedVectorized, MatchesAFloat64ReferenceOnAwkwardSizesAndShiftedPointers) {
  auto device = make_emulator_device();
  expect_vectorized_matches_float64(*device);
}

TEST_P(VectorAddEmulated, TraceEqualsTheAnalyticMapping) {
  const Case c = GetParam();
  HostTraceSink sink;
  auto check = trace_vector_add(*device_, c.n, c.config, sink);
  ASSERT_TRUE(check.is_ok()) << check.message();
  const auto records = sink.records();
  ASSERT_EQ(records.size(), c.n);
  const std::uint64_t per_block = c.config.block.x;
  for (std::uint64_t i = 0; i < c.n; ++i) {
    const DecodedTrace d = decode(records[i], i, {1, c.n}, c.config);
    if (i < c.config.total_threads()) {
      // i = blockIdx.x * blockDim.x + threadIdx.x
      ASSERT_EQ(d.writes, 1u) << i;
      ASSERT_EQ(d.block.x, i / per_block) << i;
      ASSERT_EQ(d.thread.x, i % per_block) << i;
      ASSERT_EQ(d.warp, static_cast<std::int64_t>((i % per_block) / 32)) << i;
      ASSERT_EQ(d.lane, static_cast<std::int64_t>((i % per_block) % 32)) << i;
      ASSERT_EQ(d.sm, -1);
    } else {
      ASSERT_EQ(d.writes, 0u) << i;
    }
  }
  const TraceSummary summary = summarize(records, c.config);
  const std::uint64_t threads = c.config.total_threads();
  EXPECT_EQ(summary.unwritten, threads >= c.n ? 0 : c.n - threads);
  EXPECT_EQ(summary.idle_threads, threads > c.n ? threads - c.n : 0);
  EXPECT_EQ(summary.written_more, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    OddSizesAndGrids, VectorAddEmulated,
    ::testing::Values(Case{1, {{1, 1, 1}, {1, 1, 1}}},        // the smallest launch
                      Case{1000, {{1, 1, 1}, {1000, 1, 1}}},  // the article's <<<1, 1000>>>
                      Case{1000, {{4, 1, 1}, {256, 1, 1}}},   // 24 idle threads
                      Case{1000, {{3, 1, 1}, {256, 1, 1}}},   // grid too small: 232 never written
                      Case{4097, {{17, 1, 1}, {256, 1, 1}}},  // odd N, one extra block
                      Case{999, {{1000, 1, 1}, {1, 1, 1}}},   // grid far too large, one thread each
                      Case{12345, {{13, 1, 1}, {1000, 1, 1}}},  // block size not a multiple of 32
                      Case{100000, {{64, 1, 1}, {1024, 1, 1}}}));

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
class NoPinnedMemory final : public Device {
 public:
  NoPinnedMemory() : inner_(make_emulator_device()) {}
  [[nodiscard]] bool is_gpu() const override { return inner_->is_gpu(); }
  [[nodiscard]] const DeviceInfo& info() const override { return inner_->info(); }
  [[nodiscard]] const kernels::KernelRegistry& kernels() const override {
    return inner_->kernels();
  }
  Result<void*> allocate(std::size_t bytes) override { return inner_->allocate(bytes); }
  void release(void* pointer) override { inner_->release(pointer); }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    return inner_->copy_to_device(dst, src, bytes);
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    return inner_->copy_to_host(dst, src, bytes);
  }
  Status fill_zero(void* dst, std::size_t bytes) override { return inner_->fill_zero(dst, bytes); }
  Status copy_on_device(void* dst, const void* src, std::size_t bytes) override {
    return inner_->copy_on_device(dst, src, bytes);
  }
  Status synchronize() override { return inner_->synchronize(); }
  Status reset() override { return inner_->reset(); }
  Result<std::vector<double>> time_repeated(const std::function<Status()>& work, int warmup,
                                            int repeats) override {
    return inner_->time_repeated(work, warmup, repeats);
  }
  Result<MemoryInfo> memory_info() override { return inner_->memory_info(); }
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
  std::unique_ptr<Device> inner_;
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
