// The dense-layer kernels on the emulator, through the same runner the app uses: unfused, fused
// and the CPU reference agree on odd sizes and odd launch shapes, traces match the analytic
// mapping, and refusals carry their reasons.

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/trace.cuh"
#include "lessons/05_dense_layer/dense_layer_runner.hpp"

// The kernel source itself, to test its __device__ sigmoid directly.
namespace dense_layer_source {
#include "lessons/05_dense_layer/kernels/dense_layer.cuh"
}  // namespace dense_layer_source

namespace tl::compute {
namespace {

using lessons::DenseLayerParams;
using lessons::DenseLayerPath;

DenseLayerParams layer(std::uint64_t batch, std::uint64_t in, std::uint64_t out,
                       DenseLayerPath path = DenseLayerPath::kFused) {
  DenseLayerParams params;
  params.batch = batch;
  params.in = in;
  params.out = out;
  params.path = path;
  return params;
}

DenseLayerRequest quick(const DenseLayerParams& params, const LaunchConfig& config) {
  DenseLayerRequest request;
  request.params = params;
  request.config = config;
  request.warmup = 0;
  request.repeats = 1;
  request.time_cpu = false;
  request.keep_outputs = true;
  return request;
}

TEST(DenseLayerDeviceSigmoid, EqualsTheCpuReferenceBitForBitIncludingExtremes) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> inputs = {0.0f,    -0.0f,   1e-30f,  -1e-30f, 88.0f,    -88.0f, 89.0f, -89.0f,
                               -100.0f, -103.0f, -150.0f, FLT_MAX, -FLT_MAX, inf,    -inf};
  for (float x = -40.0f; x <= 40.0f; x += 0.37f) inputs.push_back(x);
  for (float x : inputs) {
    const float device = dense_layer_source::sigmoid(x);
    const float reference = lessons::sigmoid_reference(x);
    EXPECT_EQ(device, reference) << x;
    EXPECT_GE(device, 0.0f) << x;
    EXPECT_LE(device, 1.0f) << x;
  }
  EXPECT_TRUE(std::isnan(dense_layer_source::sigmoid(std::numeric_limits<float>::quiet_NaN())));
}

struct Case {
  DenseLayerParams params;
  LaunchConfig config;
  const char* what;
};

std::uint64_t rows_covered(const LaunchConfig& c) {
  return std::uint64_t{c.grid.y} * c.block.y;
}
std::uint64_t cols_covered(const LaunchConfig& c) {
  return std::uint64_t{c.grid.x} * c.block.x;
}
bool covers(const Case& c) {
  return rows_covered(c.config) >= c.params.batch && cols_covered(c.config) >= c.params.out;
}

class DenseLayerEmulated : public ::testing::TestWithParam<Case> {
 protected:
  std::unique_ptr<Device> device_ = make_emulator_device();
};

TEST_P(DenseLayerEmulated, UnfusedEqualsFusedEqualsTheCpuReference) {
  const Case c = GetParam();
  auto report = run_dense_layer(*device_, quick(c.params, c.config));
  ASSERT_TRUE(report.is_ok()) << c.what << ": " << report.message();
  EXPECT_FALSE(report->on_gpu);
  ASSERT_TRUE(report->unfused_check.has_value());
  ASSERT_TRUE(report->fused_check.has_value());
  EXPECT_EQ(report->unfused_check->checked, c.params.outputs());
  if (!covers(c)) {
    // Elements outside the grid keep their NaN: the check names the first of them.
    EXPECT_FALSE(report->unfused_check->passed) << c.what;
    EXPECT_FALSE(report->fused_check->passed) << c.what;
    // Elements are checked row by row: a missing column strip fails in row 0 first.
    const bool columns_missing = cols_covered(c.config) < c.params.out;
    EXPECT_EQ(report->fused_check->first_wrong_row, columns_missing ? 0 : rows_covered(c.config))
        << c.what;
    EXPECT_EQ(report->fused_check->first_wrong_col, columns_missing ? cols_covered(c.config) : 0)
        << c.what;
    return;
  }
  EXPECT_TRUE(report->unfused_check->passed) << c.what << ": " << report->unfused_check->describe();
  EXPECT_TRUE(report->fused_check->passed) << c.what << ": " << report->fused_check->describe();

  // On the emulator all three compute each element with the same float operations in the same
  // order (the tiles only add exact zeros past the end), so they agree bit for bit.
  std::vector<float> reference(c.params.outputs());
  const lessons::DenseLayerData data = lessons::make_dense_layer_data(c.params, 1);
  lessons::dense_layer_reference(c.params, data, reference);
  EXPECT_EQ(report->unfused_output, report->fused_output) << c.what;
  EXPECT_EQ(report->fused_output, reference) << c.what;

  // No cuBLAS on the emulator, and the report says why.
  EXPECT_FALSE(report->has_cublas());
  EXPECT_TRUE(report->cublas_output.empty());
  EXPECT_FALSE(report->cublas_check.has_value());
  EXPECT_NE(report->cublas_absent_reason.find("emulator"), std::string::npos);
  // The picture shows the selected path's first output row.
  ASSERT_FALSE(report->picture.outputs.empty());
  if (c.params.out <= lessons::kLayerPictureMaxCells) {
    EXPECT_EQ(report->picture.outputs[0], reference[0]);
  }
}

TEST_P(DenseLayerEmulated, TracedPathsEqualTheAnalyticMapping) {
  const Case c = GetParam();
  for (DenseLayerPath path : {DenseLayerPath::kUnfused, DenseLayerPath::kFused}) {
    DenseLayerParams params = c.params;
    params.path = path;
    HostTraceSink sink;
    auto check = trace_dense_layer(*device_, params, c.config, sink);
    ASSERT_TRUE(check.is_ok()) << c.what << ": " << check.message();
    EXPECT_EQ(check->passed, covers(c)) << c.what << ": " << check->describe();
    const auto records = sink.records();
    ASSERT_EQ(records.size(), params.outputs());
    const DataShape shape = lessons::dense_layer_trace_shape(params);
    const Dim3 block = c.config.block;
    std::uint64_t unwritten = 0;
    for (std::uint64_t e = 0; e < records.size(); ++e) {
      const DecodedTrace d = decode(records[e], e, shape, c.config);
      const std::uint64_t r = e / params.out;
      const std::uint64_t o = e % params.out;
      ASSERT_EQ(d.row, r);
      ASSERT_EQ(d.col, o);
      if (r >= rows_covered(c.config) || o >= cols_covered(c.config)) {
        ASSERT_EQ(d.writes, 0u) << c.what << " element " << e;
        ++unwritten;
        continue;
      }
      // o = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y
      ASSERT_EQ(d.writes, 1u) << c.what << " element " << e;
      ASSERT_EQ(d.block.x, o / block.x) << e;
      ASSERT_EQ(d.block.y, r / block.y) << e;
      ASSERT_EQ(d.thread.x, o % block.x) << e;
      ASSERT_EQ(d.thread.y, r % block.y) << e;
      const std::uint64_t linear_thread = (r % block.y) * block.x + o % block.x;
      ASSERT_EQ(d.warp, static_cast<std::int64_t>(linear_thread / 32)) << e;
      ASSERT_EQ(d.lane, static_cast<std::int64_t>(linear_thread % 32)) << e;
      ASSERT_EQ(d.sm, -1);
    }
    const TraceSummary summary = summarize(records, c.config);
    EXPECT_EQ(summary.unwritten, unwritten);
    EXPECT_EQ(summary.written_more, 0u);
    EXPECT_EQ(summary.idle_threads, c.config.total_threads() - (params.outputs() - unwritten));
  }
}

INSTANTIATE_TEST_SUITE_P(
    OddSizesAndGrids, DenseLayerEmulated,
    ::testing::Values(
        Case{layer(3, 37, 29), lessons::dense_layer_config(layer(3, 37, 29)), "odd sizes"},
        Case{layer(1, 37, 29), lessons::dense_layer_config(layer(1, 37, 29)), "batch 1"},
        Case{layer(1, 1, 1), {{1, 1, 1}, {1, 1, 1}}, "the smallest layer"},
        Case{layer(1, 300, 70), {{3, 1, 1}, {32, 1, 1}}, "batch 1, one row of threads"},
        Case{layer(9, 65, 33), {{3, 2, 1}, {16, 5, 1}}, "half-warp blocks over odd rows"},
        Case{layer(5, 40, 31), {{31, 5, 1}, {1, 1, 1}}, "one thread per block"},
        Case{layer(3, 37, 29), {{4, 3, 1}, {32, 32, 1}}, "grid far too large: idle threads"},
        Case{layer(40, 33, 70), {{2, 5, 1}, {32, 8, 1}}, "grid too small: columns left over"},
        Case{layer(40, 33, 60), {{2, 4, 1}, {32, 8, 1}}, "grid too small: rows left over"},
        Case{layer(64, 100, 96), lessons::dense_layer_config(layer(64, 100, 96)), "a batch"}));

TEST(DenseLayerEmulatedErrors, BlockTooLargeForTheTilesIsRefusedWithAReason) {
  auto device = make_emulator_device();
  const DenseLayerParams params = layer(3, 37, 29);
  auto report = run_dense_layer(*device, quick(params, {{1, 1, 1}, {64, 4, 1}}));
  ASSERT_FALSE(report.is_ok());
  EXPECT_EQ(report.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(report.message().find("shared memory"), std::string::npos) << report.message();
  HostTraceSink sink;
  auto traced = trace_dense_layer(*device, params, {{1, 1, 1}, {64, 4, 1}}, sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kInvalidArgument);
}

TEST(DenseLayerEmulatedErrors, GridBeyondCudasLimitIsCudasErrorAndTheDeviceKeepsWorking) {
  auto device = make_emulator_device();
  // 70000 rows, one per block in y: gridDim.y may not exceed 65535.
  const DenseLayerParams params = layer(70000, 1, 1);
  auto report = run_dense_layer(*device, quick(params, {{1, 70000, 1}, {32, 1, 1}}));
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("invalid configuration argument"), std::string::npos)
      << report.message();
  // x along the single neuron, y along the rows: 2188 blocks of 32 rows.
  auto again =
      run_dense_layer(*device, quick(params, lessons::dense_layer_config(params, {1, 32, 1})));
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->fused_check->passed) << again->fused_check->describe();
}

TEST(DenseLayerEmulatedErrors, ZeroSizesAndTooMuchWorkAreRefused) {
  auto device = make_emulator_device();
  auto zero = run_dense_layer(*device, quick(layer(0, 4, 4), {{1, 1, 1}, {32, 8, 1}}));
  ASSERT_FALSE(zero.is_ok());
  EXPECT_EQ(zero.error().kind, ErrorKind::kInvalidArgument);
  const DenseLayerParams huge = layer(1024, 1024, 1024);
  auto slow = run_dense_layer(*device, quick(huge, lessons::dense_layer_config(huge)));
  ASSERT_FALSE(slow.is_ok());
  EXPECT_EQ(slow.error().kind, ErrorKind::kTooSlow);
  HostTraceSink sink;
  auto slow_trace = trace_dense_layer(*device, huge, lessons::dense_layer_config(huge), sink);
  ASSERT_FALSE(slow_trace.is_ok());
  EXPECT_EQ(slow_trace.error().kind, ErrorKind::kTooSlow);
}

TEST(DenseLayerEmulatedErrors, TracingTheCublasPathExplainsThatItNeedsAGpu) {
  auto device = make_emulator_device();
  const DenseLayerParams params = layer(3, 37, 29, DenseLayerPath::kCublas);
  HostTraceSink sink;
  auto traced = trace_dense_layer(*device, params, lessons::dense_layer_config(params), sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(traced.message().find("cuBLAS"), std::string::npos) << traced.message();
  EXPECT_FALSE(cublas_absent_reason(*device).empty());
}

TEST(DenseLayerEmulatedTimings, ReportsEveryLaunchAndTheUnfusedSum) {
  auto device = make_emulator_device();
  DenseLayerRequest request;
  request.params = layer(8, 256, 128);
  request.config = lessons::dense_layer_config(request.params);
  request.repeats = 3;
  auto report = run_dense_layer(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const TimingStats* t :
       {&report->unfused_product, &report->unfused_bias, &report->unfused_sigmoid, &report->unfused,
        &report->fused, &report->host_to_device, &report->device_to_host, &report->cpu_single,
        &report->cpu_multi}) {
    EXPECT_EQ(t->repeats, 3);
    EXPECT_LE(t->min_ms, t->median_ms);
    EXPECT_LE(t->median_ms, t->max_ms);
  }
  // The unfused path's repeats are sums of its three launches' repeats.
  EXPECT_GE(report->unfused.min_ms, report->unfused_product.min_ms);
  EXPECT_LE(report->unfused.min_ms, report->unfused_product.max_ms + report->unfused_bias.max_ms +
                                        report->unfused_sigmoid.max_ms);
  EXPECT_TRUE(report->cublas.empty());
  EXPECT_TRUE(report->cpu_single_skipped.empty());
  EXPECT_GE(report->cpu_threads, 1u);
  EXPECT_TRUE(report->unfused_output.empty());  // not kept unless asked
  EXPECT_EQ(report->picture.neuron_cells, 32u);
  EXPECT_EQ(report->picture.input_cells, 32u);
}

}  // namespace
}  // namespace tl::compute
