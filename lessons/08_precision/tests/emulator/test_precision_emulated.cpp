// The precision lesson on the CPU emulator: the kernels' results equal a host replay of the same
// operations in the same order with core/numeric's roundings; FP16 sums overflow and underflow
// where the formats say they must; FP32 sums stay within their bound; TF32 has no accumulator.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "compute/device.hpp"
#include "core/numeric/low_precision.hpp"
#include "lessons/08_precision/precision.hpp"
#include "lessons/08_precision/precision_runner.hpp"

namespace tl {
namespace {

using compute::PrecisionRequest;
using lessons::Accumulate;
using lessons::PrecisionData;
using numeric::FloatFormat;

PrecisionRequest small(PrecisionData data) {
  PrecisionRequest request;
  request.params.n = 5000;
  request.params.size = 37;  // not a multiple of the 16 × 16 tile
  request.params.block = 64;
  request.params.blocks = 7;
  request.params.data = data;
  request.warmup = 0;
  request.repeats = 1;
  return request;
}

const compute::PrecisionVariantResult& find(const compute::PrecisionReport& report,
                                            FloatFormat format, Accumulate accumulate) {
  for (const auto& r : report.results) {
    if (r.variant.format == format && r.variant.accumulate == accumulate) return r;
  }
  ADD_FAILURE() << "no such variant";
  return report.results.front();
}

// The dot kernels' order, replayed on the host in FP16: each thread's grid-stride chain of
// __hfma, the block's tree of __hadd, then the block sums added in order.
float replay_fp16_dot(const std::vector<float>& a, const std::vector<float>& b, std::uint32_t block,
                      std::uint32_t blocks) {
  const std::size_t threads = std::size_t{block} * blocks;
  std::vector<std::uint16_t> sums(threads, 0);
  for (std::size_t t = 0; t < threads; ++t) {
    for (std::size_t i = t; i < a.size(); i += threads) {
      sums[t] = numeric::half_fma_bits(numeric::float_to_half_bits(a[i]),
                                       numeric::float_to_half_bits(b[i]), sums[t]);
    }
  }
  std::uint16_t total = 0;
  for (std::uint32_t g = 0; g < blocks; ++g) {
    std::uint16_t* partial = &sums[std::size_t{g} * block];
    for (std::uint32_t s = block / 2; s > 0; s /= 2) {
      for (std::uint32_t t = 0; t < s; ++t)
        partial[t] = numeric::half_add_bits(partial[t], partial[t + s]);
    }
    total = numeric::half_add_bits(total, partial[0]);
  }
  return numeric::half_bits_to_float(total);
}

TEST(PrecisionEmulated, Fp16DotIsTheHostReplayBitForBit) {
  auto device = compute::make_emulator_device();
  const PrecisionRequest request = small(PrecisionData::kSigned);
  auto report = compute::run_precision(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  const auto a = lessons::make_precision_data(request.params.n, request.params.data, request.seed);
  const auto b = lessons::make_precision_data(request.params.n, request.params.data,
                                              request.seed + 0x9E3779B9u);
  const float replay = replay_fp16_dot(a, b, request.params.block, request.params.blocks);
  const auto& fp16 = find(*report, FloatFormat::kFp16, Accumulate::kSameFormat);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(static_cast<float>(fp16.dot)),
            std::bit_cast<std::uint32_t>(replay));
}

TEST(PrecisionEmulated, Fp32SumsPassTheirBoundsOnEveryData) {
  auto device = compute::make_emulator_device();
  for (PrecisionData data : {PrecisionData::kUniform, PrecisionData::kSigned, PrecisionData::kLarge,
                             PrecisionData::kTiny}) {
    auto report = compute::run_precision(*device, small(data));
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_TRUE(report->passed()) << report->describe_check();
    EXPECT_EQ(report->results.size(), 6u);
    EXPECT_EQ(report->inputs.size(), 4u);
    EXPECT_EQ(report->inputs.front().dot_error, 0.0);  // FP32 inputs are the data itself
  }
}

TEST(PrecisionEmulated, Fp16ProductsOverflowAndUnderflowInFp16Only) {
  auto device = compute::make_emulator_device();
  auto large = compute::run_precision(*device, small(PrecisionData::kLarge));
  ASSERT_TRUE(large.is_ok()) << large.message();
  // Every product of [100, 300) inputs is at least 10000, and a sum of 37 of them passes 65504.
  EXPECT_EQ(find(*large, FloatFormat::kFp16, Accumulate::kSameFormat).matmul_not_finite, 37u * 37u);
  EXPECT_TRUE(std::isinf(find(*large, FloatFormat::kFp16, Accumulate::kSameFormat).dot));
  EXPECT_EQ(find(*large, FloatFormat::kFp16, Accumulate::kFp32).matmul_not_finite, 0u);
  EXPECT_EQ(find(*large, FloatFormat::kBf16, Accumulate::kSameFormat).matmul_not_finite, 0u);

  auto tiny = compute::run_precision(*device, small(PrecisionData::kTiny));
  ASSERT_TRUE(tiny.is_ok()) << tiny.message();
  // Products near 1e-10 are below FP16's smallest subnormal (6e-8): the FP16 sums stay 0.
  EXPECT_EQ(find(*tiny, FloatFormat::kFp16, Accumulate::kSameFormat).dot, 0.0);
  EXPECT_NEAR(find(*tiny, FloatFormat::kFp16, Accumulate::kSameFormat).dot_error, 1.0, 1e-12);
  EXPECT_GT(find(*tiny, FloatFormat::kFp16, Accumulate::kFp32).dot, 0.0);
}

TEST(PrecisionEmulated, FewerMantissaBitsGiveLargerErrors) {
  auto device = compute::make_emulator_device();
  auto report = compute::run_precision(*device, small(PrecisionData::kUniform));
  ASSERT_TRUE(report.is_ok()) << report.message();
  const auto& fp32 = find(*report, FloatFormat::kFp32, Accumulate::kFp32);
  const auto& fp16 = find(*report, FloatFormat::kFp16, Accumulate::kFp32);
  const auto& bf16 = find(*report, FloatFormat::kBf16, Accumulate::kFp32);
  EXPECT_LT(fp32.matmul_error, fp16.matmul_error);
  EXPECT_LT(fp16.matmul_error, bf16.matmul_error);
}

TEST(PrecisionEmulated, Tf32HasNoAccumulatorAndBadParametersAreRefused) {
  auto device = compute::make_emulator_device();
  PrecisionRequest request = small(PrecisionData::kUniform);
  request.params.drawn = {FloatFormat::kTf32, Accumulate::kSameFormat};
  auto refused = compute::run_precision(*device, request);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("TF32"), std::string::npos);
  request = small(PrecisionData::kUniform);
  request.params.block = 48;
  EXPECT_FALSE(compute::run_precision(*device, request).is_ok());
}

// The timed and traced products map threads alike: tests/emulator/test_mapping_probe.cpp runs
// this set's probes with every other registered set's.

}  // namespace
}  // namespace tl
