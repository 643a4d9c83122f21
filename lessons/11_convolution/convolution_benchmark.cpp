#include "convolution_benchmark.hpp"

#include <string>

#include "lessons/11_convolution/convolution.hpp"
#include "lessons/11_convolution/convolution_cudnn_graph.hpp"

namespace tl::compute {
namespace {

// Issue #40's target: the ladder's fastest rung at 0.8 of cuDNN's fastest algorithm on a ResNet
// layer, in FP32 and, with tensor cores, in FP16.
constexpr double kTarget = 0.8;

// The layer on a GPU (batch 32, 64 → 64 channels, 56 × 56, 3 × 3, stride 1, pad 1), NHWC
// (the tensor-core rung's layout); on the emulator a small one that runs in a second, whose
// ratios say nothing about a GPU (the table's header names the device).
lessons::ParamValues layer(const BenchContext& context) {
  if (context.device.is_gpu()) {
    return {{"batch", "32"},       {"channels", "64"},
            {"filters", "64"},     {"image_height", "56"},
            {"image_width", "56"}, {"filter", "3"},
            {"stride", "1"},       {"pad", "1"},
            {"layout", "nhwc"},    {"kernel", "implicit-gemm"}};
  }
  return {{"batch", "2"},        {"channels", "8"},
          {"filters", "16"},     {"image_height", "16"},
          {"image_width", "16"}, {"filter", "3"},
          {"stride", "1"},       {"pad", "1"},
          {"layout", "nhwc"},    {"kernel", "implicit-gemm"}};
}

double tflops(const TimingRow& row) {
  return per_second(row.flops, row) / 1e12;
}

// cuDNN's fastest in one precision: the faster of the graph API's plan and the Find API's
// algorithm, whichever were timed (null when neither was).
const TimingRow* fastest_cudnn(const LessonReport& report, bool fp16) {
  const TimingRow* graph =
      find_timed_row(report, {TimingRole::kLibrary, lessons::cudnn_row_variant(fp16, true)});
  const TimingRow* find =
      find_timed_row(report, {TimingRole::kLibrary, lessons::cudnn_row_variant(fp16, false)});
  if (graph == nullptr) return find;
  if (find == nullptr) return graph;
  return tflops(*find) > tflops(*graph) ? find : graph;
}

// "graph API" or "Find", from the row's name ("cuDNN FP16 graph API (engine ...)").
std::string cudnn_api(const TimingRow* row) {
  if (row == nullptr) return {};
  return row->name.find("graph API") != std::string::npos ? " (graph API)" : " (Find API)";
}

}  // namespace

Status convolution_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  const lessons::ParamValues values = layer(context);
  auto report = run_lesson_once(context.device, lessons::kConvolutionId, values, context.repeats);
  if (!report) return report.error();
  const std::string shape = context.device.is_gpu() ? "ResNet 3×3 layer, 32×64×56×56 NHWC"
                                                    : "2×8×16×16 NHWC, 16 filters 3×3";
  const TimingRow* fp32 = fastest_cudnn(*report, false);
  const TimingRow* fp16 = fastest_cudnn(*report, true);
  const std::string no_cudnn = context.device.is_gpu()
                                   ? "cuDNN not timed here: `threadlab run --lesson convolution` "
                                     "says why"
                                   : "cuDNN runs on a GPU only";

  // The FP32 rungs against cuDNN FP32; the fastest one carries the target.
  const TimingRow* fastest = nullptr;
  for (const lessons::ConvRung rung : lessons::kConvRungs) {
    if (rung == lessons::ConvRung::kTensorFp16) continue;
    const TimingRow* row =
        find_timed_row(*report, {TimingRole::kKernel, std::string(lessons::to_string(rung))});
    if (row != nullptr && (fastest == nullptr || tflops(*row) > tflops(*fastest))) fastest = row;
    if (context.suite == BenchSuite::kPerf) continue;
    RatioRow ratio =
        rate_ratio("convolution " + std::string(lessons::to_string(rung)) + ", " + shape,
                   row != nullptr ? tflops(*row) : 0, "TFLOP/s",
                   "cuDNN FP32 (FMA math), its fastest" + cudnn_api(fp32) + ", same run",
                   fp32 != nullptr ? tflops(*fp32) : 0);
    if (row == nullptr)
      ratio.absent = "not timed on this device";
    else if (fp32 == nullptr)
      ratio.absent = no_cudnn;
    rows.push_back(std::move(ratio));
  }
  RatioRow best =
      rate_ratio("convolution fastest FP32 rung" +
                     (fastest != nullptr ? " (" + fastest->name + ")" : "") + ", " + shape,
                 fastest != nullptr ? tflops(*fastest) : 0, "TFLOP/s",
                 "cuDNN FP32, its fastest" + cudnn_api(fp32) + ", same run",
                 fp32 != nullptr ? tflops(*fp32) : 0);
  if (fp32 == nullptr) best.absent = no_cudnn;
  rows.push_back(with_target(std::move(best), kTarget));
  // The peer the issue names: PyTorch's conv2d, timed by its own script in the same session.
  RatioRow peer =
      time_ratio("convolution fastest FP32 rung, " + shape + ", time per call",
                 fastest != nullptr ? fastest->stats.median_ms : 0, "PyTorch conv2d FP32", 0);
  peer.absent =
      "PyTorch is not part of ThreadLab: run tools/gpu/conv2d_vs_pytorch.py on the same GPU";
  rows.push_back(std::move(peer));

  // The tensor-core rung against cuDNN FP16 (tensor cores allowed).
  const TimingRow* tensor = find_timed_row(
      *report,
      {TimingRole::kKernel, std::string(lessons::to_string(lessons::ConvRung::kTensorFp16))});
  RatioRow ratio =
      rate_ratio("convolution tensor-fp16, " + shape, tensor != nullptr ? tflops(*tensor) : 0,
                 "TFLOP/s", "cuDNN FP16, its fastest" + cudnn_api(fp16) + ", same run",
                 fp16 != nullptr ? tflops(*fp16) : 0);
  if (tensor == nullptr) {
    ratio.absent = context.device.is_gpu() ? "the tensor-core rung needs compute capability 8.0"
                                           : "tensor cores are not emulated";
  } else if (fp16 == nullptr) {
    ratio.absent = no_cudnn;
  }
  rows.push_back(with_target(std::move(ratio), kTarget));
  return Status::ok();
}

}  // namespace tl::compute
