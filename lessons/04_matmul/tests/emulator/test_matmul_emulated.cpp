// The matmul kernels on the emulator, through the same runner the app uses: results against the CPU
// reference on odd sizes, traces against the analytic mapping, and the error paths.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::compute {
namespace {

using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

const MatmulVariant kNaive16{MatmulKernel::kNaive, 16, {16, 16, 1}};
const MatmulVariant kNaiveOdd{MatmulKernel::kNaive, 16, {7, 3, 1}};  // not a multiple of anything
const MatmulVariant kTiled8{MatmulKernel::kTiled, 8, {}};
const MatmulVariant kTiled16{MatmulKernel::kTiled, 16, {}};
const MatmulVariant kTiled32{MatmulKernel::kTiled, 32, {}};

MatmulRequest quick(MatmulSize size, std::vector<MatmulVariant> variants) {
  MatmulRequest request;
  request.size = size;
  request.variants = std::move(variants);
  request.warmup = 0;
  request.repeats = 1;
  request.time_cpu = false;
  return request;
}

class MatmulEmulated : public ::testing::TestWithParam<MatmulSize> {
 protected:
  std::unique_ptr<Device> device_ = make_emulator_device();
};

TEST_P(MatmulEmulated, EveryKernelMatchesTheCpuReference) {
  const MatmulSize size = GetParam();
  auto report =
      run_matmul(*device_, quick(size, {kNaive16, kNaiveOdd, kTiled8, kTiled16, kTiled32}));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->on_gpu);
  EXPECT_EQ(report->check_reference, "CPU cache-blocked reference");
  ASSERT_EQ(report->kernels.size(), 5u);
  for (const MatmulTiming& row : report->kernels) {
    ASSERT_TRUE(row.ran()) << row.name << ": " << row.skipped;
    ASSERT_TRUE(row.check.has_value()) << row.name;
    EXPECT_TRUE(row.check->passed)
        << size.to_string() << " " << row.name << ": " << row.check->describe();
    EXPECT_EQ(row.time.repeats, 1) << row.name;
    EXPECT_GE(row.config->total_threads(), size.c_elements()) << row.name;
  }
  EXPECT_EQ(report->kernels[2].config->block, (Dim3{8, 8, 1}));
  EXPECT_EQ(report->kernels[4].config->block, (Dim3{32, 32, 1}));
  // The emulator has no cuBLAS, and says so.
  EXPECT_FALSE(report->cublas.ran());
  EXPECT_NE(report->cublas.skipped.find("emulator"), std::string::npos) << report->cublas.skipped;
}

// Which thread wrote each element: for both kernels, column = blockIdx.x * blockDim.x +
// threadIdx.x and row = blockIdx.y * blockDim.y + threadIdx.y.
void expect_analytic_mapping(std::span<const TraceRecord> records, const MatmulSize& size,
                             const LaunchConfig& config) {
  const std::uint32_t bx = config.block.x, by = config.block.y;
  for (std::uint32_t row = 0; row < size.m; ++row) {
    for (std::uint32_t col = 0; col < size.n; ++col) {
      const std::uint64_t element = std::uint64_t{row} * size.n + col;
      const DecodedTrace d = decode(records[element], element, {size.m, size.n}, config);
      const bool covered = col < config.grid.x * bx && row < config.grid.y * by;
      if (!covered) {
        ASSERT_EQ(d.writes, 0u) << row << "," << col;
        continue;
      }
      ASSERT_EQ(d.writes, 1u) << row << "," << col;
      ASSERT_EQ(d.row, row);
      ASSERT_EQ(d.col, col);
      ASSERT_EQ(d.block, (Dim3{col / bx, row / by, 0})) << row << "," << col;
      ASSERT_EQ(d.thread, (Dim3{col % bx, row % by, 0})) << row << "," << col;
      const std::int64_t linear_thread = (row % by) * bx + col % bx;
      ASSERT_EQ(d.warp, linear_thread / 32);
      ASSERT_EQ(d.lane, linear_thread % 32);
      ASSERT_EQ(d.iteration, 0u);
      ASSERT_EQ(d.sm, -1);  // the emulator has no SMs
    }
  }
}

TEST_P(MatmulEmulated, TraceEqualsTheAnalyticMapping) {
  const MatmulSize size = GetParam();
  for (const MatmulVariant& variant : {kNaive16, kNaiveOdd, kTiled8, kTiled16, kTiled32}) {
    SCOPED_TRACE(variant.to_string());
    const LaunchConfig config = lessons::matmul_covering_config(size, variant);
    HostTraceSink sink;
    auto traced = trace_matmul(*device_, size, variant, config, sink);
    ASSERT_TRUE(traced.is_ok()) << traced.message();
    ASSERT_TRUE(traced->check.has_value());
    EXPECT_TRUE(traced->check->passed) << traced->check->describe();
    EXPECT_EQ(traced->shape.rows, size.m);
    EXPECT_EQ(traced->shape.cols, size.n);
    ASSERT_EQ(sink.records().size(), size.c_elements());
    expect_analytic_mapping(sink.records(), size, config);
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
    EXPECT_EQ(summary.idle_threads, config.total_threads() - size.c_elements());
  }
}

INSTANTIATE_TEST_SUITE_P(OddSizes, MatmulEmulated,
                         ::testing::Values(MatmulSize{37, 53, 29},  // nothing a multiple of a tile
                                           MatmulSize{1, 1, 1},     // one element, one term
                                           MatmulSize{64, 64, 64},  // whole tiles only
                                           MatmulSize{5, 70, 100},  // wide C, long K
                                           MatmulSize{70, 3, 1}));  // tall C, K = 1

TEST(MatmulEmulatedGrids, GridTooSmallLeavesElementsUnwrittenAndTheCheckFindsThem) {
  auto device = make_emulator_device();
  const MatmulSize size{37, 53, 29};
  // 2×2 blocks of 16×16 cover rows and columns 0..31 only: 37·53 − 32·32 = 937 elements missed.
  MatmulRequest request = quick(size, {kTiled16, {MatmulKernel::kNaive, 16, {16, 16, 1}}});
  request.grid = Dim3{2, 2, 1};
  auto report = run_matmul(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const MatmulTiming& row : report->kernels) {
    ASSERT_TRUE(row.check.has_value());
    EXPECT_FALSE(row.check->passed) << row.name;
    EXPECT_EQ(row.check->wrong_count, 937u) << row.name;
    EXPECT_EQ(row.check->first_wrong_row, 0u);  // row 0 runs out at column 32
    EXPECT_EQ(row.check->first_wrong_col, 32u);
    EXPECT_EQ(row.config->grid, (Dim3{2, 2, 1}));
  }

  for (const MatmulVariant& variant : {kTiled16, kNaive16}) {
    const LaunchConfig config{{2, 2, 1}, {16, 16, 1}};
    HostTraceSink sink;
    auto traced = trace_matmul(*device, size, variant, config, sink);
    ASSERT_TRUE(traced.is_ok()) << traced.message();
    EXPECT_FALSE(traced->check->passed);
    expect_analytic_mapping(sink.records(), size, config);
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 937u) << variant.to_string();
    EXPECT_EQ(summary.idle_threads, 0u) << variant.to_string();
  }
}

TEST(MatmulEmulatedGrids, GridTooLargeOnlyAddsIdleThreads) {
  auto device = make_emulator_device();
  const MatmulSize size{37, 53, 29};
  MatmulRequest request = quick(size, {kTiled8, kNaiveOdd});
  request.grid = Dim3{20, 20, 1};
  auto report = run_matmul(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const MatmulTiming& row : report->kernels) {
    EXPECT_TRUE(row.check->passed) << row.name << ": " << row.check->describe();
  }
}

TEST(MatmulEmulatedGrids, ABlockWithDepthWritesEveryElementTwice) {
  // blockDim.z = 2: both z-layers compute the same (row, col), a race the trace makes visible.
  auto device = make_emulator_device();
  const MatmulSize size{20, 20, 8};
  const MatmulVariant deep{MatmulKernel::kNaive, 16, {8, 8, 2}};
  const LaunchConfig config = lessons::matmul_covering_config(size, deep);
  HostTraceSink sink;
  auto traced = trace_matmul(*device, size, deep, config, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_TRUE(traced->check->passed);  // both wrote the same value
  const TraceSummary summary = summarize(sink.records(), config);
  EXPECT_EQ(summary.written_more, size.c_elements());
}

TEST(MatmulEmulatedErrors, RefusedConfigurationsSayWhyAndTheDeviceKeepsWorking) {
  auto device = make_emulator_device();
  const MatmulSize size{40, 40, 40};
  // 64×32 = 2048 threads per block: CUDA's own error.
  auto oversized = run_matmul(*device, quick(size, {{MatmulKernel::kNaive, 16, {64, 32, 1}}}));
  ASSERT_FALSE(oversized.is_ok());
  EXPECT_NE(oversized.message().find("invalid configuration argument"), std::string::npos)
      << oversized.message();
  // A tile the kernel is not compiled for.
  auto tile12 = run_matmul(*device, quick(size, {{MatmulKernel::kTiled, 12, {}}}));
  ASSERT_FALSE(tile12.is_ok());
  EXPECT_EQ(tile12.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(tile12.message().find("TILE = 12"), std::string::npos) << tile12.message();
  // The tiled kernel with a block that does not match its tile.
  HostTraceSink sink;
  auto mismatched = trace_matmul(*device, size, kTiled8, {{5, 5, 1}, {16, 16, 1}}, sink);
  ASSERT_FALSE(mismatched.is_ok());
  EXPECT_NE(mismatched.message().find("needs blocks of 8×8"), std::string::npos)
      << mismatched.message();
  // Zero sizes.
  auto empty = run_matmul(*device, quick({0, 4, 4}, {kNaive16}));
  ASSERT_FALSE(empty.is_ok());
  EXPECT_EQ(empty.error().kind, ErrorKind::kInvalidArgument);

  auto again = run_matmul(*device, quick(size, {kNaive16, kTiled8}));
  ASSERT_TRUE(again.is_ok()) << again.message();
  for (const MatmulTiming& row : again->kernels) EXPECT_TRUE(row.check->passed) << row.name;
}

TEST(MatmulEmulatedErrors, SizesTooLargeForTheEmulatorAreRefusedBeforeRunning) {
  auto device = make_emulator_device();
  auto huge = run_matmul(*device, quick({2048, 2048, 2048}, {kTiled16}));
  ASSERT_FALSE(huge.is_ok());
  EXPECT_EQ(huge.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(huge.message().find("emulator"), std::string::npos) << huge.message();
  HostTraceSink sink;
  const MatmulSize size{2048, 2048, 2048};
  auto traced =
      trace_matmul(*device, size, kNaive16, lessons::matmul_covering_config(size, kNaive16), sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kTooSlow);
}

TEST(MatmulEmulatedTimings, ReportsKernelAndCpuTimingsWithGflops) {
  auto device = make_emulator_device();
  MatmulRequest request = quick({96, 80, 72}, {kNaive16, kTiled16});
  request.repeats = 3;
  request.warmup = 1;
  request.time_cpu = true;
  auto report = run_matmul(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const MatmulTiming* row :
       {&report->kernels[0], &report->kernels[1], &report->cpu_naive, &report->cpu_blocked}) {
    ASSERT_TRUE(row->ran()) << row->name << ": " << row->skipped;
    EXPECT_EQ(row->time.repeats, 3) << row->name;
    EXPECT_LE(row->time.min_ms, row->time.median_ms);
    EXPECT_LE(row->time.median_ms, row->time.max_ms);
    EXPECT_GT(row->gflops, 0) << row->name;
  }
  ASSERT_TRUE(report->cpu_naive.check.has_value());
  EXPECT_TRUE(report->cpu_naive.check->passed);
  EXPECT_FALSE(report->cpu_blocked.check.has_value());  // it is the reference
  EXPECT_EQ(report->host_to_device.repeats, 3);
  EXPECT_EQ(report->device_to_host.repeats, 3);
}

TEST(MatmulEmulatedTimings, CancelStopsTheRun) {
  auto device = make_emulator_device();
  std::atomic<bool> cancel{true};
  MatmulRequest request = quick({32, 32, 32}, {kNaive16});
  request.cancel = &cancel;
  auto report = run_matmul(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_EQ(report.error().kind, ErrorKind::kCancelled);
}

}  // namespace
}  // namespace tl::compute
