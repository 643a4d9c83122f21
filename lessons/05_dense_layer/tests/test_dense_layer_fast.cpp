// The dense layer's fast product on every device (tests/devices/device_under_test.hpp): the GEMV
// (batch below 8) and the pipelined GEMM (from batch 8 on), unfused and fused, against the exact
// layer on sizes that are no multiple of anything, with rows too short or misaligned for the GEMV's
// float4s, GEMM tiles across every edge (zeros past the end of k, of the batch and of the neurons)
// and whole GEMM tiles (copied without bounds checks); the traced fused kernel writes each element
// of Y once. On a GPU, cuBLAS's layer agrees too.

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/05_dense_layer/dense_layer_runner.hpp"

namespace tl::testing {
namespace {

using lessons::DenseLayerParams;
using lessons::DenseLayerPath;
using lessons::DenseProduct;

DenseLayerParams fast_layer(std::uint64_t batch, std::uint64_t in, std::uint64_t out) {
  DenseLayerParams params;
  params.batch = batch;
  params.in = in;
  params.out = out;
  params.product = DenseProduct::kFast;
  return params;
}

const DenseLayerParams kOddShapes[] = {
    fast_layer(1, 1, 1),        // one weight
    fast_layer(1, 256, 40),     // float4 rows, only the GEMV's tail loop
    fast_layer(1, 2056, 40),    // the GEMV's 8-deep loop, then its tail
    fast_layer(1, 1000, 37),    // float4 rows, a tail of float4s
    fast_layer(3, 37, 53),      // rows not a multiple of 4: single floats
    fast_layer(7, 64, 9),       // the largest GEMV batch
    fast_layer(8, 64, 130),     // the smallest GEMM batch, past one tile
    fast_layer(8, 260, 129),    // 16 tiles of k and a zero-filled 17th
    fast_layer(20, 100, 70),    // GEMM copies zero-filled past k = 100
    fast_layer(37, 29, 53),     // GEMM, nothing a multiple of anything
    fast_layer(128, 48, 128),   // GEMM, whole tiles in batch and neurons
    fast_layer(130, 66, 129),   // GEMM, just past whole tiles
    fast_layer(131, 36, 257),   // GEMM, 2 × 3 tiles across the edges
    fast_layer(128, 32, 256)};  // GEMM, whole tiles: 1 × 2 blocks, 2 stages

class DenseLayerFast : public OnEveryDevice {};

TEST_P(DenseLayerFast, UnfusedAndFusedMatchTheExactLayer) {
  for (const DenseLayerParams& params : kOddShapes) {
    SCOPED_TRACE(std::to_string(params.batch) + "x" + std::to_string(params.in) + "->" +
                 std::to_string(params.out));
    compute::DenseLayerRequest request;
    request.params = params;
    request.config = lessons::dense_layer_config(params);
    request.warmup = 0;
    request.repeats = 1;
    request.time_cpu = false;
    auto report = compute::run_dense_layer(device(), request);
    ASSERT_TRUE(report.is_ok()) << report.message();
    ASSERT_TRUE(report->unfused_check.has_value());
    ASSERT_TRUE(report->fused_check.has_value());
    EXPECT_TRUE(report->unfused_check->passed) << report->unfused_check->describe();
    EXPECT_TRUE(report->fused_check->passed) << report->fused_check->describe();
    EXPECT_EQ(report->fused_check->checked, params.outputs());
    if (on_gpu()) {
      ASSERT_TRUE(report->cublas_check.has_value());
      EXPECT_TRUE(report->cublas_check->passed) << report->cublas_check->describe();
    }
  }
}

TEST_P(DenseLayerFast, TracedFusedKernelWritesEveryElementOnce) {
  for (DenseLayerParams params : kOddShapes) {
    SCOPED_TRACE(std::to_string(params.batch) + "x" + std::to_string(params.in) + "->" +
                 std::to_string(params.out));
    params.path = DenseLayerPath::kFused;
    const LaunchConfig config = lessons::dense_layer_config(params);
    compute::HostTraceSink sink;
    auto check = compute::trace_dense_layer(device(), params, config, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    const TraceSummary summary =
        summarize(sink.records(), lessons::dense_layer_fast_config(params));
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
  }
}

THREADLAB_ON_EVERY_DEVICE(DenseLayerFast);

}  // namespace
}  // namespace tl::testing
