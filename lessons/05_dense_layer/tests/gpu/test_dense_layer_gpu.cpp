// The dense-layer kernels and the cuBLAS path on a real GPU: every path against the exact layer,
// the paths against each other, the article's 4096 × 4096 matrix-vector layer and a batch of 256,
// traces, and the error paths a student will hit.

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/05_dense_layer/dense_layer_runner.hpp"

namespace tl::testing {
namespace {

using compute::DenseLayerReport;
using compute::DenseLayerRequest;
using compute::HostTraceSink;
using lessons::DenseLayerParams;
using lessons::DenseLayerPath;

class DenseLayerGpu : public GpuTest {};

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
  request.repeats = 2;
  request.time_cpu = false;
  request.keep_outputs = true;
  return request;
}

// Largest |a - b| over two outputs of the same layer.
double largest_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double largest = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    largest = std::max(largest, std::abs(static_cast<double>(a[i]) - b[i]));
  }
  return largest;
}

// Every path ran, passed its check against the exact layer, and the three outputs agree. Rounding
// differences between paths stay far below 1e-4 on these well-scaled inputs (measured around
// 1e-7); the check's guaranteed bound is looser still.
void expect_all_paths_agree(const DenseLayerReport& report, const std::string& what) {
  EXPECT_TRUE(report.on_gpu);
  ASSERT_TRUE(report.has_cublas()) << what << ": " << report.cublas_absent_reason;
  EXPECT_TRUE(report.cublas_absent_reason.empty()) << report.cublas_absent_reason;
  ASSERT_TRUE(report.unfused_check && report.fused_check && report.cublas_check) << what;
  EXPECT_TRUE(report.unfused_check->passed) << what << ": " << report.unfused_check->describe();
  EXPECT_TRUE(report.fused_check->passed) << what << ": " << report.fused_check->describe();
  EXPECT_TRUE(report.cublas_check->passed) << what << ": " << report.cublas_check->describe();
  ASSERT_EQ(report.unfused_output.size(), report.fused_output.size());
  ASSERT_EQ(report.cublas_output.size(), report.fused_output.size());
  EXPECT_LT(largest_difference(report.unfused_output, report.fused_output), 1e-4) << what;
  EXPECT_LT(largest_difference(report.cublas_output, report.fused_output), 1e-4) << what;
  for (const TimingStats* t :
       {&report.unfused_product, &report.unfused_bias, &report.unfused_sigmoid, &report.unfused,
        &report.fused, &report.cublas_product, &report.cublas_epilogue, &report.cublas}) {
    EXPECT_EQ(t->repeats, 2) << what;
    EXPECT_LE(t->min_ms, t->median_ms) << what;
    EXPECT_LE(t->median_ms, t->max_ms) << what;
  }
}

TEST_F(DenseLayerGpu, EveryPathMatchesTheExactLayerOnOddSizesAndShapes) {
  struct Case {
    DenseLayerParams params;
    LaunchConfig config;
  };
  for (const Case& c : std::vector<Case>{
           {layer(3, 37, 29), lessons::dense_layer_config(layer(3, 37, 29))},
           {layer(1, 37, 29), lessons::dense_layer_config(layer(1, 37, 29))},
           {layer(1, 1, 1), {{1, 1, 1}, {1, 1, 1}}},
           {layer(9, 65, 33), {{3, 2, 1}, {16, 5, 1}}},
           {layer(3, 37, 29), {{4, 3, 1}, {32, 32, 1}}},  // far too many threads: idle ones
           {layer(100, 1000, 300), lessons::dense_layer_config(layer(100, 1000, 300), {32, 32, 1})},
       }) {
    auto report = compute::run_dense_layer(device(), quick(c.params, c.config));
    ASSERT_TRUE(report.is_ok()) << report.message();
    expect_all_paths_agree(*report, c.config.to_string());
  }
}

TEST_F(DenseLayerGpu, TheArticlesLayer4096By4096AtBatch1) {
  const DenseLayerParams params = layer(1, 4096, 4096);
  auto report =
      compute::run_dense_layer(device(), quick(params, lessons::dense_layer_config(params)));
  ASSERT_TRUE(report.is_ok()) << report.message();
  expect_all_paths_agree(*report, "4096 x 4096, batch 1");
  EXPECT_EQ(report->fused_check->checked, 4096u);
}

TEST_F(DenseLayerGpu, ABatchOf256BecomesAMatrixProduct) {
  const DenseLayerParams params = layer(256, 4096, 4096);
  auto report =
      compute::run_dense_layer(device(), quick(params, lessons::dense_layer_config(params)));
  ASSERT_TRUE(report.is_ok()) << report.message();
  expect_all_paths_agree(*report, "4096 x 4096, batch 256");
  // 256 rows of 16.8 M multiply-adds exceed the check's budget: a spread of rows is checked.
  EXPECT_LT(report->fused_check->checked, report->fused_check->total);
  EXPECT_GE(report->fused_check->checked, 2u * 4096u);
}

TEST_F(DenseLayerGpu, CpuReferencesAreTimedOrSkippedWithAReason) {
  DenseLayerRequest request = quick(layer(4, 512, 256), {});
  request.config = lessons::dense_layer_config(request.params);
  request.time_cpu = true;
  auto report = compute::run_dense_layer(device(), request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_EQ(report->cpu_single.repeats, 2);
  EXPECT_EQ(report->cpu_multi.repeats, 2);

  DenseLayerRequest huge = quick(layer(4096, 4096, 4096), {});
  huge.config = lessons::dense_layer_config(huge.params);
  huge.time_cpu = true;
  huge.keep_outputs = false;
  auto skipped = compute::run_dense_layer(device(), huge);
  ASSERT_TRUE(skipped.is_ok()) << skipped.message();
  EXPECT_TRUE(skipped->cpu_single.empty());
  EXPECT_NE(skipped->cpu_single_skipped.find("not timed"), std::string::npos);
  EXPECT_TRUE(skipped->fused_check->passed) << skipped->fused_check->describe();
}

TEST_F(DenseLayerGpu, TracesEqualTheAnalyticMappingOnEveryPathAndNameRealSms) {
  const LaunchConfig config{{3, 5, 1}, {32, 8, 1}};  // 96 × 40 threads for Y of 37 × 70
  for (DenseLayerPath path :
       {DenseLayerPath::kUnfused, DenseLayerPath::kFused, DenseLayerPath::kCublas}) {
    const DenseLayerParams params = layer(37, 300, 70, path);
    HostTraceSink sink;
    auto check = compute::trace_dense_layer(device(), params, config, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    const DataShape shape = lessons::dense_layer_trace_shape(params);
    std::set<std::int64_t> sms;
    for (std::uint64_t e = 0; e < params.outputs(); ++e) {
      const DecodedTrace d = decode(sink.records()[e], e, shape, config);
      const std::uint64_t r = e / params.out;
      const std::uint64_t o = e % params.out;
      ASSERT_EQ(d.writes, 1u) << e;
      ASSERT_EQ(d.block.x, o / 32) << e;
      ASSERT_EQ(d.block.y, r / 8) << e;
      ASSERT_EQ(d.thread.x, o % 32) << e;
      ASSERT_EQ(d.thread.y, r % 8) << e;
      ASSERT_GE(d.sm, 0) << e;
      ASSERT_LT(d.sm, device().info().multiprocessors) << e;
      sms.insert(d.sm);
    }
    EXPECT_GT(sms.size(), 1u);  // 15 blocks spread over the GPU
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.idle_threads, config.total_threads() - params.outputs());
  }
}

TEST_F(DenseLayerGpu, InvalidConfigurationsAreRefusedAndTheDeviceRecovers) {
  const DenseLayerParams params = layer(3, 37, 29);
  // Too large for the shared-memory tiles: refused before any launch.
  auto too_wide = compute::run_dense_layer(device(), quick(params, {{1, 1, 1}, {64, 4, 1}}));
  ASSERT_FALSE(too_wide.is_ok());
  EXPECT_EQ(too_wide.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(too_wide.message().find("shared memory"), std::string::npos) << too_wide.message();

  // gridDim.y beyond 65535: CUDA itself refuses the launch, in its own words (the wording depends
  // on the CUDA version).
  const DenseLayerParams tall = layer(70000, 1, 1);
  auto refused = compute::run_dense_layer(device(), quick(tall, {{1, 70000, 1}, {32, 1, 1}}));
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCudaError);
  EXPECT_NE(refused.message().find("failed to launch"), std::string::npos) << refused.message();
  EXPECT_TRUE(refused.message().find("cudaErrorInvalidConfiguration") != std::string::npos ||
              refused.message().find("cudaErrorInvalidValue") != std::string::npos)
      << refused.message();

  auto again =
      compute::run_dense_layer(device(), quick(params, lessons::dense_layer_config(params)));
  ASSERT_TRUE(again.is_ok()) << again.message();
  expect_all_paths_agree(*again, "after the refused launches");
}

}  // namespace
}  // namespace tl::testing
