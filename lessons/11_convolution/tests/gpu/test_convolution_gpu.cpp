// Lesson 11 on a real GPU: every rung and cuDNN (FP32 and FP16) against the float64 reference, on
// awkward shapes and on the ResNet layer of the lesson's done-when figure (batch 32, 64 → 64
// channels, 56 × 56, 3 × 3). Skipped, visibly, without a GPU; the cuDNN test also without cuDNN,
// saying what was looked for. cuDNN runs through the graph API's timed plans and the Find API,
// both checked.

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "compute/trace_sink.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/11_convolution/convolution.hpp"
#include "lessons/11_convolution/convolution_cudnn.hpp"
#include "lessons/11_convolution/convolution_runner.hpp"

namespace tl::testing {
namespace {

using lessons::ConvRung;
using lessons::ConvShape;

ConvShape shape(std::uint32_t n, std::uint32_t c, std::uint32_t h, std::uint32_t w, std::uint32_t k,
                std::uint32_t filter, std::uint32_t stride, std::uint32_t pad, bool nhwc) {
  ConvShape s;
  s.n = n;
  s.c = c;
  s.h = h;
  s.w = w;
  s.k = k;
  s.r = s.s = filter;
  s.stride = stride;
  s.pad = pad;
  s.nhwc = nhwc;
  return s;
}

ConvShape resnet_layer(bool nhwc) {
  return shape(32, 64, 56, 56, 64, 3, 1, 1, nhwc);
}

class ConvolutionGpu : public GpuTest {
 protected:
  compute::ConvReport run(const ConvShape& s, bool cudnn) {
    compute::ConvRequest request;
    request.shape = s;
    request.repeats = 2;
    request.time_cpu = false;
    request.cudnn = cudnn;
    for (ConvRung rung : lessons::kConvRungs) {
      if (compute::conv_rung_unavailable(device(), s, rung, request.block).empty()) {
        request.rungs.push_back(rung);
      }
    }
    auto report = compute::run_convolution(device(), request);
    EXPECT_TRUE(report.is_ok()) << s.describe() << ": " << report.message();
    return report ? *report : compute::ConvReport{};
  }
  void expect_rungs_pass(const ConvShape& s, const compute::ConvReport& report) {
    EXPECT_GE(report.rungs.size(), 4u) << s.describe();
    for (const compute::ConvRungResult& result : report.rungs) {
      ASSERT_TRUE(result.check.has_value());
      EXPECT_TRUE(result.check->passed) << lessons::to_string(result.rung) << " on " << s.describe()
                                        << ": " << result.check->describe();
    }
  }
  // The tensor rung ran on `s` and passed its check against the FP16 reference.
  void expect_tensor_rung_passes(const ConvShape& s, const compute::ConvReport& report) {
    bool ran = false;
    for (const compute::ConvRungResult& result : report.rungs) {
      if (result.rung != ConvRung::kTensorFp16) continue;
      ran = true;
      ASSERT_TRUE(result.check.has_value());
      EXPECT_TRUE(result.check->passed) << s.describe() << ": " << result.check->describe();
    }
    EXPECT_TRUE(ran) << "the tensor rung was left out of " << s.describe();
  }
  bool has_tensor_cores() {
    return device().info().compute_major * 10 + device().info().compute_minor >= 80;
  }
};

TEST_F(ConvolutionGpu, EveryRungMatchesTheReferenceOnAwkwardShapes) {
  for (const bool nhwc : {false, true}) {
    for (const ConvShape& s :
         {shape(2, 3, 13, 11, 5, 3, 1, 1, nhwc), shape(1, 5, 17, 19, 7, 5, 2, 2, nhwc),
          shape(3, 4, 9, 10, 6, 1, 2, 0, nhwc), shape(2, 6, 15, 13, 70, 3, 1, 1, nhwc),
          shape(3, 8, 31, 29, 72, 3, 2, 1, nhwc), shape(2, 24, 33, 35, 40, 5, 1, 2, nhwc),
          shape(1, 16, 9, 7, 8, 7, 1, 0, nhwc)}) {
      expect_rungs_pass(s, run(s, false));
    }
  }
}

TEST_F(ConvolutionGpu, TensorRungRunsWhereItShouldAndMatchesTheFp16Reference) {
  if (!has_tensor_cores()) GTEST_SKIP() << "the tensor-core rung needs compute capability 8.0";
  for (const ConvShape& s :
       {shape(2, 8, 15, 13, 8, 3, 1, 1, true), shape(3, 16, 31, 29, 72, 3, 2, 1, true),
        shape(2, 24, 33, 35, 40, 5, 1, 2, true), shape(1, 64, 7, 9, 136, 1, 1, 0, true)}) {
    expect_tensor_rung_passes(s, run(s, false));
  }
  // NCHW, or channels that are no multiple of 8: left out with the reason.
  EXPECT_NE(compute::conv_rung_unavailable(device(), shape(1, 8, 8, 8, 8, 3, 1, 1, false),
                                           ConvRung::kTensorFp16, {256, 1, 1})
                .find("NHWC"),
            std::string::npos);
  EXPECT_NE(compute::conv_rung_unavailable(device(), shape(1, 6, 8, 8, 8, 3, 1, 1, true),
                                           ConvRung::kTensorFp16, {256, 1, 1})
                .find("multiples of 8"),
            std::string::npos);
}

// The tensor rung's resident form (3 × 3 over 64 channels, stride 1, NHWC) where this GPU gives a
// block the shared memory it needs: right against the FP16 reference on shapes whose padded
// images, chunks and filter slices do not line up (no padding, padding 2, 136 filters in three
// slices, a single small image), every output written exactly once by the traced form, the launch
// the lesson shows being the one that ran; a wide image takes the tile instead and is right too.
TEST_F(ConvolutionGpu, TheResidentFormRunsWhereItFitsAndMatchesTheFp16Reference) {
  if (!has_tensor_cores()) GTEST_SKIP() << "the tensor-core rung needs compute capability 8.0";
  const compute::ConvTarget target = compute::conv_target(device());
  if (!compute::conv_tensor_resident(resnet_layer(true), target)) {
    GTEST_SKIP() << "this GPU gives a block " << target.shared_per_block_optin
                 << " bytes of shared memory; the resident form needs "
                 << kernels::conv_resident_shared_bytes(resnet_layer(true).dims());
  }
  for (const ConvShape& s :
       {shape(3, 64, 13, 21, 136, 3, 1, 1, true), shape(2, 64, 9, 7, 8, 3, 1, 0, true),
        shape(1, 64, 5, 6, 64, 3, 1, 2, true), shape(1, 64, 3, 3, 16, 3, 1, 1, true),
        shape(2, 64, 12, 230, 16, 3, 1, 1, true)}) {
    const bool resident = compute::conv_tensor_resident(s, target);
    EXPECT_EQ(resident, s.w != 230) << s.describe();
    expect_tensor_rung_passes(s, run(s, false));

    compute::HostTraceSink sink;
    auto check = compute::trace_convolution(device(), s, ConvRung::kTensorFp16,
                                            {kernels::kTensorThreads, 1, 1}, sink);
    ASSERT_TRUE(check.is_ok()) << s.describe() << ": " << check.message();
    ASSERT_TRUE(check->has_value());
    EXPECT_TRUE((*check)->passed) << s.describe() << ": " << (*check)->describe();
    const auto& records = sink.records();
    ASSERT_EQ(records.size(), s.output_elements());
    const LaunchConfig shown =
        compute::conv_launch_config(s, ConvRung::kTensorFp16, {256, 1, 1}, target);
    for (std::size_t i = 0; i < records.size(); ++i) {
      ASSERT_EQ(records[i].writes, 1u) << s.describe() << " output " << i;
      ASSERT_LT(records[i].block, shown.grid.volume()) << s.describe() << " output " << i;
    }
  }
}

TEST_F(ConvolutionGpu, CudnnFp32AndFp16MatchTheReferenceAndNameTheirAlgorithm) {
  auto library = compute::cudnn_library();
  if (!library) GTEST_SKIP() << "no cuDNN: " << library.message();
  for (const bool nhwc : {false, true}) {
    for (const ConvShape& s :
         {shape(2, 3, 13, 11, 5, 3, 1, 1, nhwc), shape(1, 5, 17, 19, 7, 5, 2, 2, nhwc),
          shape(2, 16, 10, 9, 24, 3, 2, 1, nhwc)}) {
      const compute::ConvReport report = run(s, true);
      // FP32 graph, FP32 Find, FP16 graph, FP16 Find.
      ASSERT_EQ(report.cudnn.size(), 4u) << s.describe();
      for (const compute::ConvLibraryResult& row : report.cudnn) {
        const std::string precision =
            std::string(row.fp16 ? "FP16" : "FP32") + (row.graph ? " graph" : " Find");
        ASSERT_TRUE(row.not_timed.empty())
            << precision << " " << s.describe() << ": " << row.not_timed;
        EXPECT_FALSE(row.algorithm.empty());
        ASSERT_TRUE(row.check.has_value());
        EXPECT_TRUE(row.check->passed) << "cuDNN " << precision << " (" << row.algorithm << ") on "
                                       << s.describe() << ": " << row.check->describe();
      }
    }
  }
}

TEST_F(ConvolutionGpu, TheResNetLayerIsRightOnEveryRungAndOnCudnn) {
  for (const bool nhwc : {false, true}) {
    const ConvShape s = resnet_layer(nhwc);
    const compute::ConvReport report = run(s, true);
    expect_rungs_pass(s, report);
    for (const compute::ConvLibraryResult& row : report.cudnn) {
      if (!row.not_timed.empty()) continue;  // no cuDNN: the test above says so
      ASSERT_TRUE(row.check.has_value());
      EXPECT_TRUE(row.check->passed)
          << (row.fp16 ? "FP16 " : "FP32 ") << (row.graph ? "graph " : "Find ") << row.algorithm
          << ": " << row.check->describe();
    }
  }
}

// The graph (backend) API's path on the ResNet layer in both layouts and precisions: a plan was
// timed, its output matches the reference (the FP16 one for FP16) within the same tolerances as the
// Find rows, and the engine, its time and the Find row's are printed for the record (no timing is
// asserted: which is faster is the GPU's and cuDNN's to say).
TEST_F(ConvolutionGpu, CudnnGraphPlansMatchTheReferenceOnTheResNetLayerAndReportTheirTime) {
  auto library = compute::cudnn_library();
  if (!library) GTEST_SKIP() << "no cuDNN: " << library.message();
  if (const Status graph = compute::cudnn_graph_api(); !graph) {
    GTEST_SKIP() << "this cuDNN has no graph API: " << graph.message();
  }
  for (const bool nhwc : {true, false}) {
    const ConvShape s = resnet_layer(nhwc);
    const compute::ConvReport report = run(s, true);
    ASSERT_EQ(report.cudnn.size(), 4u) << s.describe();
    for (const bool fp16 : {false, true}) {
      const compute::ConvLibraryResult* graph = nullptr;
      const compute::ConvLibraryResult* find = nullptr;
      for (const compute::ConvLibraryResult& row : report.cudnn) {
        if (row.fp16 == fp16) (row.graph ? graph : find) = &row;
      }
      ASSERT_NE(graph, nullptr);
      ASSERT_NE(find, nullptr);
      const char* precision = fp16 ? "FP16" : "FP32";
      ASSERT_TRUE(graph->not_timed.empty())
          << precision << " " << s.describe() << ": " << graph->not_timed;
      EXPECT_NE(graph->algorithm.find("engine "), std::string::npos) << graph->algorithm;
      EXPECT_NE(graph->details.find("plans timed"), std::string::npos) << graph->details;
      ASSERT_TRUE(graph->check.has_value());
      EXPECT_TRUE(graph->check->passed) << precision << " graph (" << graph->algorithm << ") on "
                                        << s.describe() << ": " << graph->check->describe();
      EXPECT_GT(graph->time.median_ms, 0.0);
      std::cout << "[ cuDNN    ] " << s.describe() << " " << precision
                << " graph API: " << graph->time.median_ms << " ms median, " << graph->algorithm
                << "; " << graph->details << "\n";
      if (find->not_timed.empty()) {
        std::cout << "[ cuDNN    ] " << s.describe() << " " << precision
                  << " Find API: " << find->time.median_ms << " ms median, " << find->algorithm
                  << "\n";
      } else {
        std::cout << "[ cuDNN    ] " << precision << " Find API not timed: " << find->not_timed
                  << "\n";
      }
      ::testing::Test::RecordProperty(
          std::string("cudnn_graph_") + precision + (nhwc ? "_nhwc" : "_nchw") + "_ms",
          std::to_string(graph->time.median_ms));
    }
  }
}

}  // namespace
}  // namespace tl::testing
