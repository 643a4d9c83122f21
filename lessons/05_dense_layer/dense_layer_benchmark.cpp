#include "dense_layer_benchmark.hpp"

#include <string>

#include "lessons/05_dense_layer/dense_layer.hpp"

namespace tl::compute {
namespace {

// Issue #6's targets (perf): fused at least 1.5× faster than unfused at batch 1; at a large batch
// at most 1.15× slower than cuBLAS + the fused epilogue.
constexpr double kFusedBatch1Target = 1.5;
constexpr double kFusedLargeBatchTarget = 1.0 / 1.15;

const TimingKey kFused{TimingRole::kKernel, "fused"};
const TimingKey kUnfused{TimingRole::kKernel, "unfused"};
const TimingKey kCublas{TimingRole::kLibrary, "cublas-fused-epilogue"};

struct DenseSizes {
  std::uint32_t side;
  std::uint32_t large_batch;
};

DenseSizes sizes_for(const Device& device) {
  return device.is_gpu() ? DenseSizes{4096, 4096} : DenseSizes{128, 16};
}

double median(const TimingRow* row) {
  return row != nullptr ? row->stats.median_ms : 0;
}

Result<LessonReport> run_layer(const BenchContext& context, std::uint32_t side, std::uint32_t batch,
                               const char* product) {
  lessons::ParamValues values{{"inputs", std::to_string(side)},
                              {"neurons", std::to_string(side)},
                              {"batch", std::to_string(batch)},
                              {"path", "fused"}};
  if (product != nullptr) values["product"] = product;
  return run_lesson_once(context.device, lessons::kDenseLayerId, values, context.repeats);
}

// The comparisons a user makes: fused against unfused and against cuBLAS, at one batch.
Status ratios_at(const BenchContext& context, std::uint32_t batch, std::vector<RatioRow>& rows) {
  const std::uint32_t side = sizes_for(context.device).side;
  auto report = run_layer(context, side, batch, nullptr);
  if (!report) return report.error();
  const TimingRow* fused = find_timed_row(*report, kFused);
  const TimingRow* unfused = find_timed_row(*report, kUnfused);
  const TimingRow* cublas = find_timed_row(*report, kCublas);
  if (fused == nullptr || unfused == nullptr) {
    return Error{ErrorKind::kCudaError, "dense layer: no fused or unfused timing"};
  }
  const std::string layer = "dense layer " + std::to_string(side) + "×" + std::to_string(side) +
                            ", batch " + std::to_string(batch);
  rows.push_back(
      time_ratio(layer + ": fused", median(fused), "unfused, 3 launches", median(unfused)));
  RatioRow against_cublas =
      time_ratio(layer + ": fused", median(fused), "cuBLAS + fused epilogue", median(cublas));
  if (cublas == nullptr) against_cublas.absent = "no cuBLAS on this device";
  rows.push_back(std::move(against_cublas));
  return Status::ok();
}

// The targets: the fast product fused against its own unfused chain at batch 1 (and, for the
// record, against the lesson's first, tiled kernels), and against cuBLAS at a large batch.
Status targets(const BenchContext& context, std::vector<RatioRow>& rows) {
  const DenseSizes sizes = sizes_for(context.device);
  const std::string side = std::to_string(sizes.side);
  auto layer = [&](std::uint32_t batch) {
    return "dense " + side + "×" + side + ", batch " + std::to_string(batch);
  };
  auto fast = run_layer(context, sizes.side, 1, "fast");
  if (!fast) return fast.error();
  const TimingRow* fused = find_timed_row(*fast, kFused);
  const TimingRow* unfused = find_timed_row(*fast, kUnfused);
  if (fused == nullptr || unfused == nullptr) {
    return Error{ErrorKind::kCudaError, "dense layer: no fused or unfused timing"};
  }
  rows.push_back(with_target(
      time_ratio(layer(1) + ": fused (fast product)", median(fused),
                 "unfused, same product + bias + sigmoid (3 launches)", median(unfused)),
      kFusedBatch1Target));
  auto tiled = run_layer(context, sizes.side, 1, "tiled");
  if (!tiled) return tiled.error();
  rows.push_back(time_ratio(layer(1) + ": fused (fast product)", median(fused),
                            "unfused, tiled product (the lesson's first kernels)",
                            median(find_timed_row(*tiled, kUnfused))));

  auto large = run_layer(context, sizes.side, sizes.large_batch, "fast");
  if (!large) return large.error();
  const TimingRow* large_fused = find_timed_row(*large, kFused);
  const TimingRow* cublas = find_timed_row(*large, kCublas);
  if (large_fused == nullptr) return Error{ErrorKind::kCudaError, "dense layer: no fused timing"};
  RatioRow against =
      with_target(time_ratio(layer(sizes.large_batch) + ": fused (fast product)",
                             median(large_fused), "cuBLAS SGEMM + fused epilogue", median(cublas)),
                  kFusedLargeBatchTarget);
  if (cublas == nullptr) against.absent = "no cuBLAS on this device";
  rows.push_back(std::move(against));
  return Status::ok();
}

}  // namespace

Status dense_layer_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  if (context.suite == BenchSuite::kPerf) return targets(context, rows);
  TL_RETURN_IF_ERROR(ratios_at(context, 1, rows));
  return ratios_at(context, sizes_for(context.device).large_batch, rows);
}

}  // namespace tl::compute
