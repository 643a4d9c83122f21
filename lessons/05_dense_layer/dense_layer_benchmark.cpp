#include "dense_layer_benchmark.hpp"

#include <algorithm>
#include <string>

#include "core/stats.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"

namespace tl::compute {
namespace {

// The targets (perf). At batch 1 the layer reads each weight once and does two flops with it: it is
// bandwidth-bound, so the fused kernel is held to at least 0.90 of a kernel that only reads W once
// (issue #20; "1.5x faster than unfused", issue #6's target, measured launch noise: 1.47-1.77x
// across runs). At a large batch, at most 1.15x slower than cuBLAS + the fused epilogue.
constexpr double kFusedBatch1OfBareReadTarget = 0.90;
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

// A kernel that only reads W: the reductions lesson's one-pass vectorized sum (float4 grid-stride
// loads, one wave of resident blocks) over as many floats as W holds, from the same kernel table.
// Its median time is what reading W once costs on this device.
Result<double> bare_read_ms(const BenchContext& context, std::uint64_t floats) {
  Device& device = context.device;
  auto weights = allocate_array<float>(device, floats);
  if (!weights) return weights.error();
  TL_RETURN_IF_ERROR(device.fill_zero(weights->data(), floats * sizeof(float)));
  constexpr std::uint32_t kBlock = 256;
  const std::uint32_t per_sm =
      std::max<std::uint32_t>(1, (device.info().max_threads_per_multiprocessor != 0
                                      ? device.info().max_threads_per_multiprocessor
                                      : 2048) /
                                     kBlock);
  const std::uint32_t grid =
      static_cast<std::uint32_t>(std::max(1, device.info().multiprocessors)) * per_sm;
  auto out = allocate_array<float>(device, 1);
  auto block_sums = allocate_array<float>(device, grid);
  auto blocks_done = allocate_array<unsigned int>(device, 1);
  if (!out || !block_sums || !blocks_done) {
    return Error{ErrorKind::kOutOfMemory, "no device memory for the bare read of W"};
  }
  TL_RETURN_IF_ERROR(device.fill_zero(blocks_done->data(), sizeof(unsigned int)));
  const kernels::SumOutputs outputs{out->data(), block_sums->data(), blocks_done->data()};
  const LaunchConfig config{Dim3{grid}, Dim3{kBlock}};
  const auto& sum = device.kernels().get<kernels::ReductionKernels>().sum;
  auto times = device.time_repeated(
      [&] {
        return sum(kernels::SumRung::kVectorized, config, weights->data(), static_cast<int>(floats),
                   outputs);
      },
      2, context.repeats);
  if (!times) return times.error();
  return summarize_timings(*times).median_ms;
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
  const double weight_bytes = 4.0 * sizes.side * sizes.side;
  auto read_ms = bare_read_ms(context, std::uint64_t{sizes.side} * sizes.side);
  if (!read_ms) return read_ms.error();
  rows.push_back(with_target(
      rate_ratio(layer(1) + ": fused (fast product), W read at", weight_bytes / median(fused) / 1e6,
                 "GB/s", "a kernel that only reads W (vectorized sum, same run)",
                 weight_bytes / *read_ms / 1e6),
      kFusedBatch1OfBareReadTarget));
  rows.push_back(time_ratio(layer(1) + ": fused (fast product)", median(fused),
                            "unfused, same product + bias + sigmoid (3 launches)",
                            median(unfused)));
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
