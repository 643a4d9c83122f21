// Every rung of the matrix-multiply ladder on every device (tests/devices/device_under_test.hpp):
// against the CPU reference on sizes that are no multiple of any tile, and one write per element
// in the traces.

#include <gtest/gtest.h>

#include <vector>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::testing {
namespace {

using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

class MatmulLadder : public OnEveryDevice {};

std::vector<MatmulVariant> every_rung() {
  std::vector<MatmulVariant> variants;
  for (MatmulKernel kernel : lessons::kMatmulLadder) variants.push_back({kernel, 16, {16, 8, 1}});
  return variants;
}

const MatmulSize kOddSizes[] = {
    {37, 53, 29},    // no multiple of any tile
    {1, 1, 1},       // one element, one term
    {130, 257, 66},  // just past whole tiles
    {128, 128, 64},  // whole tiles: the float4 path
    {64, 132, 36},   // float4 rows, partial tiles
    {70, 3, 1},      // tall C, K = 1
};

TEST_P(MatmulLadder, EveryRungMatchesTheCpuReference) {
  std::vector<MatmulSize> sizes(std::begin(kOddSizes), std::end(kOddSizes));
  // Whole 128 × 128 tiles of the register- and warp-tiled rungs, more than once: quick on a GPU.
  if (on_gpu()) sizes.push_back({256, 384, 128});
  for (const MatmulSize& size : sizes) {
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
    ASSERT_EQ(report->kernels.size(), std::size(lessons::kMatmulLadder));
    for (const compute::MatmulTiming& row : report->kernels) {
      ASSERT_TRUE(row.ran()) << row.name << ": " << row.skipped;
      ASSERT_TRUE(row.check.has_value()) << row.name;
      EXPECT_TRUE(row.check->passed)
          << size.to_string() << " " << row.name << ": " << row.check->describe();
    }
  }
}

TEST_P(MatmulLadder, EveryRungTracesEachElementOnce) {
  for (const MatmulSize& size : kOddSizes) {
    for (const MatmulVariant& variant : every_rung()) {
      SCOPED_TRACE(size.to_string() + " " + variant.to_string());
      const LaunchConfig config = lessons::matmul_covering_config(size, variant);
      compute::HostTraceSink sink;
      auto traced = compute::trace_matmul(device(), size, variant, config, sink);
      ASSERT_TRUE(traced.is_ok()) << traced.message();
      ASSERT_TRUE(traced->check.has_value());
      EXPECT_TRUE(traced->check->passed) << traced->check->describe();
      const TraceSummary summary = summarize(sink.records(), config);
      EXPECT_EQ(summary.unwritten, 0u);
      EXPECT_EQ(summary.written_more, 0u);
    }
  }
}

THREADLAB_ON_EVERY_DEVICE(MatmulLadder);

}  // namespace
}  // namespace tl::testing
