// The matrix-multiply ladder and the dense layer's fast product on a real GPU: every rung and both
// fast dense kernels against the CPU reference on sizes that are no multiple of any tile, float4
// fallbacks for unaligned matrices, and one write per element in the traces. Skipped, visibly,
// without a GPU (gpu_test_environment.hpp).

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"
#include "lessons/05_dense_layer/dense_layer_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

class MatmulLadderGpu : public GpuTest {};

std::vector<MatmulVariant> every_rung() {
  std::vector<MatmulVariant> variants;
  for (MatmulKernel kernel : lessons::kMatmulLadder) variants.push_back({kernel, 16, {16, 8, 1}});
  return variants;
}

TEST_F(MatmulLadderGpu, EveryRungMatchesTheCpuReference) {
  for (MatmulSize size : {MatmulSize{37, 53, 29}, MatmulSize{1, 1, 1}, MatmulSize{130, 257, 66},
                          MatmulSize{256, 384, 128}, MatmulSize{64, 132, 36}}) {
    compute::MatmulRequest request;
    request.size = size;
    request.variants = every_rung();
    request.warmup = 0;
    request.repeats = 1;
    request.time_cpu = false;
    request.cublas = false;
    auto report = compute::run_matmul(device(), request);
    ASSERT_TRUE(report.is_ok()) << size.to_string() << ": " << report.message();
    EXPECT_EQ(report->check_reference, "CPU cache-blocked reference");
    for (const compute::MatmulTiming& row : report->kernels) {
      ASSERT_TRUE(row.ran()) << row.name << ": " << row.skipped;
      ASSERT_TRUE(row.check.has_value()) << row.name;
      EXPECT_TRUE(row.check->passed)
          << size.to_string() << " " << row.name << ": " << row.check->describe();
    }
  }
}

TEST_F(MatmulLadderGpu, EveryRungTracesEachElementOnce) {
  const MatmulSize size{130, 257, 66};
  for (const MatmulVariant& variant : every_rung()) {
    SCOPED_TRACE(variant.to_string());
    const LaunchConfig config = lessons::matmul_covering_config(size, variant);
    HostTraceSink sink;
    auto traced = compute::trace_matmul(device(), size, variant, config, sink);
    ASSERT_TRUE(traced.is_ok()) << traced.message();
    EXPECT_TRUE(traced->check->passed) << traced->check->describe();
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
  }
}

TEST_F(MatmulLadderGpu, DenseFastProductMatchesTheExactLayer) {
  // Batch 1-7 run the GEMV, 8 on the pipelined GEMM. in = 37: rows not float4-aligned (the GEMV's
  // single floats; for the GEMM, k ends inside a group of 8); 260 = 16 tiles of k and a zero-filled
  // 17th; 2056: the GEMV's 8-deep loop and its tail. 128 × 48 × 128: the GEMM's whole tiles,
  // copied without bounds checks (every other case crosses an edge).
  for (std::uint64_t batch : {1u, 3u, 8u, 37u, 128u, 130u}) {
    lessons::DenseLayerParams params;
    params.batch = batch;
    params.in = batch == 3 || batch == 37 ? 37 : batch == 1 ? 2056 : batch == 128 ? 48 : 260;
    params.out = batch == 128 ? 128 : 129;
    params.product = lessons::DenseProduct::kFast;
    compute::DenseLayerRequest request;
    request.params = params;
    request.config = lessons::dense_layer_config(params);
    request.warmup = 0;
    request.repeats = 1;
    request.time_cpu = false;
    auto report = compute::run_dense_layer(device(), request);
    ASSERT_TRUE(report.is_ok()) << batch << ": " << report.message();
    EXPECT_TRUE(report->unfused_check->passed) << batch << report->unfused_check->describe();
    EXPECT_TRUE(report->fused_check->passed) << batch << report->fused_check->describe();
    ASSERT_TRUE(report->cublas_check.has_value());
    EXPECT_TRUE(report->cublas_check->passed) << batch << report->cublas_check->describe();

    params.path = lessons::DenseLayerPath::kFused;
    HostTraceSink sink;
    auto check = compute::trace_dense_layer(device(), params, request.config, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    const TraceSummary summary =
        summarize(sink.records(), lessons::dense_layer_fast_config(params));
    EXPECT_EQ(summary.unwritten, 0u) << batch;
    EXPECT_EQ(summary.written_more, 0u) << batch;
  }
}

}  // namespace
}  // namespace tl::testing
