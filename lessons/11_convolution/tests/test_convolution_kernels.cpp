// Lesson 11's rungs on every device (tests/devices/device_under_test.hpp): each one's output
// against the float64 reference on awkward shapes (odd sides, stride 2, padding 0 to 2, filters 1,
// 3 and 5, both layouts, tiles of the GEMMs only partly used), through the lesson's own runner, and
// the traced kernels writing every output exactly once.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/11_convolution/convolution.hpp"
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

std::vector<ConvShape> awkward_shapes() {
  std::vector<ConvShape> shapes;
  for (const bool nhwc : {false, true}) {
    shapes.push_back(shape(2, 3, 13, 11, 5, 3, 1, 1, nhwc));
    shapes.push_back(shape(1, 5, 17, 19, 7, 5, 2, 2, nhwc));
    shapes.push_back(shape(3, 4, 9, 10, 6, 1, 2, 0, nhwc));
    shapes.push_back(shape(1, 2, 7, 7, 3, 3, 1, 0, nhwc));
    // More than one GEMM tile each way: 390 output pixels, 70 filters; C and K that the tensor
    // rung's 8-channel copies accept in the next one.
    shapes.push_back(shape(2, 6, 15, 13, 70, 3, 1, 1, nhwc));
    shapes.push_back(shape(2, 16, 10, 9, 24, 3, 2, 1, nhwc));
  }
  return shapes;
}

class ConvolutionKernels : public OnEveryDevice {};

TEST_P(ConvolutionKernels, EveryRungThatRunsHereMatchesTheFloat64Reference) {
  int checked = 0;
  for (const ConvShape& s : awkward_shapes()) {
    compute::ConvRequest request;
    request.shape = s;
    request.block = {96, 1, 1};  // no multiple of the outputs: the last block is partly used
    request.repeats = 1;
    request.time_cpu = false;
    request.cudnn = false;  // tests/gpu/ checks cuDNN where it is installed
    for (ConvRung rung : lessons::kConvRungs) {
      const std::string why = compute::conv_rung_unavailable(device(), s, rung, request.block);
      if (why.empty()) {
        request.rungs.push_back(rung);
      } else if (rung != ConvRung::kTensorFp16) {
        ADD_FAILURE() << lessons::to_string(rung) << " cannot run " << s.describe() << ": " << why;
      }
    }
    auto report = compute::run_convolution(device(), request);
    ASSERT_TRUE(report.is_ok()) << s.describe() << ": " << report.message();
    ASSERT_EQ(report->rungs.size(), request.rungs.size());
    for (const compute::ConvRungResult& result : report->rungs) {
      ASSERT_TRUE(result.check.has_value());
      EXPECT_TRUE(result.check->passed) << lessons::to_string(result.rung) << " on " << s.describe()
                                        << ": " << result.check->describe();
      ++checked;
    }
  }
  // Four FP32 rungs on each of the 12 shapes at least (the tensor rung too on a GPU that has it).
  EXPECT_GE(checked, 48);
}

TEST_P(ConvolutionKernels, TracedRungsWriteEveryOutputOnce) {
  const ConvShape s = shape(2, 3, 13, 11, 5, 3, 2, 1, true);
  for (ConvRung rung :
       {ConvRung::kDirect, ConvRung::kTiled, ConvRung::kIm2colGemm, ConvRung::kImplicitGemm}) {
    compute::HostTraceSink sink;
    auto check = compute::trace_convolution(device(), s, rung, {64, 1, 1}, sink);
    ASSERT_TRUE(check.is_ok()) << lessons::to_string(rung) << ": " << check.message();
    ASSERT_TRUE(check->has_value());
    EXPECT_TRUE((*check)->passed) << lessons::to_string(rung) << ": " << (*check)->describe();
    const auto& records = sink.records();
    ASSERT_EQ(records.size(), s.output_elements());
    for (std::size_t i = 0; i < records.size(); ++i) {
      ASSERT_EQ(records[i].writes, 1u) << lessons::to_string(rung) << " output " << i;
    }
  }
}

THREADLAB_ON_EVERY_DEVICE(ConvolutionKernels);

}  // namespace
}  // namespace tl::testing
