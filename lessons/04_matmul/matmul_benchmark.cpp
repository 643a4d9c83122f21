#include "matmul_benchmark.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include "lessons/04_matmul/matmul.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"

namespace tl::compute {
namespace {

// Issue #20's target for the best FP32 rung (pipelined) against cuBLAS SGEMM at 4096³ (issue #6
// asked 0.75 of the warptile rung, which reached 0.76-0.77 on an H200, docs/PERFORMANCE.md).
constexpr double kBestRungTarget = 0.90;
constexpr const char* kBestRung = "pipelined";
// The best tensor-core rungs against cuBLAS at their precision (FP32 accumulation), 4096³: on
// Hopper the TMA rung, FP16 and BF16, at least 0.90 each (issue #39); before Hopper the mma.sync
// rung, at least 0.5 (issue #20).
constexpr double kHopperTensorTarget = 0.90;
constexpr lessons::MatmulKernel kHopperTensorRungs[] = {lessons::MatmulKernel::kWgmmaTmaFp16,
                                                        lessons::MatmulKernel::kWgmmaTmaBf16};
constexpr double kTensorTargetBeforeHopper = 0.5;
constexpr lessons::MatmulKernel kBestTensorRungBeforeHopper = lessons::MatmulKernel::kMmaFp16;

// The size on a GPU; on the emulator small enough for seconds (the ratios then say little
// about a GPU, and the table's header names the device).
std::string side_for(const BenchContext& context) {
  if (context.device.is_gpu()) return "4096";
  return context.suite == BenchSuite::kPerf ? "128" : "96";
}

double gflops(const TimingRow& row) {
  return per_second(row.flops, row) / 1e9;
}

double cublas_gflops(const LessonReport& report) {
  const TimingRow* cublas = find_timed_row(report, {TimingRole::kLibrary, "cublas-sgemm"});
  return cublas != nullptr ? gflops(*cublas) : 0;
}

Status naive_and_tiled(const BenchContext& context, std::vector<RatioRow>& rows) {
  const std::string side = side_for(context);
  bool naive_done = false;
  for (const char* tile : {"16", "32"}) {
    auto report = run_lesson_once(
        context.device, lessons::kMatmulId,
        {{"m", side}, {"n", side}, {"k", side}, {"kernel", "tiled"}, {"tile", tile}},
        context.repeats);
    if (!report) return report.error();
    const double reference = cublas_gflops(*report);
    // The naive kernel is timed beside the tiled one in both runs; one row of it is enough.
    for (const char* rung : {"naive", "tiled"}) {
      const bool naive = std::string(rung) == "naive";
      if (naive && naive_done) continue;
      const TimingRow* row = find_timed_row(*report, {TimingRole::kKernel, rung});
      if (row == nullptr) continue;
      naive_done = naive_done || naive;
      RatioRow ratio = rate_ratio(row->name + ", " + side + "³", gflops(*row), "GFLOP/s",
                                  "cuBLAS SGEMM, same size", reference);
      if (reference <= 0) ratio.absent = "no cuBLAS on this device";
      rows.push_back(std::move(ratio));
    }
  }
  return Status::ok();
}

Status ladder(const BenchContext& context, std::vector<RatioRow>& rows) {
  const std::string side = side_for(context);
  // One lesson run times every rung and cuBLAS on the same inputs; the tiled rung with TILE = 32.
  auto report = run_lesson_once(
      context.device, lessons::kMatmulId,
      {{"m", side}, {"n", side}, {"k", side}, {"kernel", kBestRung}, {"tile", "32"}},
      context.repeats);
  if (!report) return report.error();
  const double reference = cublas_gflops(*report);
  // The rungs in the ladder's order, as the lesson's "kernel" choice names them.
  for (const lessons::MatmulKernel kernel : lessons::kMatmulLadder) {
    const std::string rung(lessons::to_string(kernel));
    const TimingRow* row = find_timed_row(*report, {TimingRole::kKernel, rung});
    RatioRow ratio =
        rate_ratio("matmul " + rung + ", " + side + "³", row != nullptr ? gflops(*row) : 0,
                   "GFLOP/s", "cuBLAS SGEMM, same run", row != nullptr ? reference : 0);
    if (row == nullptr) {
      ratio.absent = "not timed: see `threadlab run --lesson matmul --kernel " + rung + "`";
    } else if (reference <= 0) {
      ratio.absent = "no cuBLAS on this device";
    }
    if (rung == kBestRung) ratio = with_target(std::move(ratio), kBestRungTarget);
    rows.push_back(std::move(ratio));
  }
  // The tensor-core rungs, timed in the same run, each against cuBLAS at its own precision
  // (cublasGemmEx with FP32 accumulation on the same inputs).
  const bool hopper_rungs_timed =
      find_timed_row(*report, {TimingRole::kKernel,
                               std::string(lessons::to_string(kHopperTensorRungs[0]))}) != nullptr;
  auto tensor_target = [&](lessons::MatmulKernel kernel) -> std::optional<double> {
    if (hopper_rungs_timed) {
      for (const lessons::MatmulKernel rung : kHopperTensorRungs) {
        if (kernel == rung) return kHopperTensorTarget;
      }
      return std::nullopt;
    }
    if (kernel == kBestTensorRungBeforeHopper) return kTensorTargetBeforeHopper;
    return std::nullopt;
  };
  for (const lessons::MatmulKernel kernel : lessons::kMatmulTensorRungs) {
    const std::string rung(lessons::to_string(kernel));
    std::string format(lessons::to_string(lessons::matmul_input(kernel)));
    std::string key = "cublas-gemmex-" + format;
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    const TimingRow* row = find_timed_row(*report, {TimingRole::kKernel, rung});
    const TimingRow* library = find_timed_row(*report, {TimingRole::kLibrary, key});
    const double library_gflops = library != nullptr ? gflops(*library) : 0;
    RatioRow ratio = rate_ratio(
        "matmul " + rung + ", " + side + "³", row != nullptr ? gflops(*row) : 0, "GFLOP/s",
        "cuBLAS GemmEx " + format + ", same run", row != nullptr ? library_gflops : 0);
    if (row == nullptr) {
      ratio.absent = context.device.is_gpu()
                         ? "not timed: see `threadlab run --lesson matmul --kernel " + rung + "`"
                         : "tensor cores are not emulated";
    } else if (library_gflops <= 0) {
      ratio.absent = "no cuBLAS on this device";
    }
    if (const auto target = tensor_target(kernel)) ratio = with_target(std::move(ratio), *target);
    rows.push_back(std::move(ratio));
  }
  return Status::ok();
}

}  // namespace

Status matmul_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  return context.suite == BenchSuite::kPerf ? ladder(context, rows)
                                            : naive_and_tiled(context, rows);
}

}  // namespace tl::compute
