// The roundings of core/numeric/low_precision against bit patterns worked out by hand from the
// formats' definitions (IEEE 754 binary16; bfloat16 = the top half of a binary32; TF32 = binary32
// with 10 mantissa bits, ties away from zero), and the layouts' ranges.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/numeric/low_precision.hpp"

namespace tl::numeric {
namespace {

float from_bits(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}
std::uint32_t bits_of(float x) {
  return std::bit_cast<std::uint32_t>(x);
}

TEST(LowPrecision, HalfConversionOfKnownValues) {
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half_bits(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half_bits(0.1f), 0x2E66);  // 0.0999755859375
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7BFF);
  EXPECT_EQ(float_to_half_bits(0.0f), 0x0000);
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half_bits(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(float_to_half_bits(-std::numeric_limits<float>::infinity()), 0xFC00);
}

TEST(LowPrecision, HalfTiesRoundToEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even (1) wins. 1 + 3·2^-11 is halfway between
  // 1 + 2^-10 (odd mantissa) and 1 + 2^-9 (even): up.
  EXPECT_EQ(float_to_half_bits(1.0f + 0x1p-11f), 0x3C00);
  EXPECT_EQ(float_to_half_bits(1.0f + 3 * 0x1p-11f), 0x3C02);
  // Just above the halfway point rounds up.
  EXPECT_EQ(float_to_half_bits(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
}

TEST(LowPrecision, HalfOverflowAndUnderflow) {
  // 65520 is halfway between 65504 and the next step (65536, which does not exist): to infinity.
  EXPECT_EQ(float_to_half_bits(65519.0f), 0x7BFF);
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7C00);
  EXPECT_EQ(float_to_half_bits(70000.0f), 0x7C00);
  EXPECT_EQ(float_to_half_bits(-1e10f), 0xFC00);
  // Subnormals: 2^-24 is the smallest, 2^-25 is a tie with 0 (even: 0), above it rounds up.
  EXPECT_EQ(float_to_half_bits(0x1p-24f), 0x0001);
  EXPECT_EQ(float_to_half_bits(0x1p-25f), 0x0000);
  EXPECT_EQ(float_to_half_bits(0x1.8p-25f), 0x0001);
  EXPECT_EQ(float_to_half_bits(3 * 0x1p-25f), 0x0002);  // 1.5·2^-24: tie, to even 2
  EXPECT_EQ(float_to_half_bits(0x1p-14f), 0x0400);      // smallest normal
  EXPECT_EQ(float_to_half_bits(0x1p-14f - 0x1p-24f), 0x03FF);
  EXPECT_EQ(float_to_half_bits(-0x1p-26f), 0x8000);  // signed zero
}

TEST(LowPrecision, NaNBecomesTheCanonicalNaN) {
  EXPECT_EQ(float_to_half_bits(std::numeric_limits<float>::quiet_NaN()), 0x7FFF);
  EXPECT_EQ(float_to_half_bits(from_bits(0xFF800001u)), 0x7FFF);
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0xFFC00000u)), 0x7FFF);
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x7F800001u)), 0x7FFF);
  EXPECT_EQ(half_fma_bits(0x7C00, 0x0000, 0x3C00), 0x7FFF);  // inf · 0
  EXPECT_EQ(half_add_bits(0x7C00, 0xFC00), 0x7FFF);          // inf - inf
}

TEST(LowPrecision, HalfWidensExactly) {
  EXPECT_EQ(half_bits_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_bits_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(half_bits_to_float(0x7BFF), 65504.0f);
  EXPECT_TRUE(std::isinf(half_bits_to_float(0x7C00)));
  EXPECT_TRUE(std::isnan(half_bits_to_float(0x7E00)));
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half_bits_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) continue;
    EXPECT_EQ(float_to_half_bits(f), h) << std::hex << h;  // every value round-trips
  }
}

TEST(LowPrecision, Bfloat16ConversionOfKnownValues) {
  EXPECT_EQ(float_to_bfloat16_bits(1.0f), 0x3F80);
  EXPECT_EQ(float_to_bfloat16_bits(0.1f), 0x3DCD);  // 0x3DCCCCCD rounds up
  // Ties to even: 0x3F808000 is halfway between 0x3F80 and 0x3F81: even (0x3F80). 0x3F818000 is
  // halfway between 0x3F81 and 0x3F82: even (0x3F82).
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x3F808000u)), 0x3F80);
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x3F818000u)), 0x3F82);
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x3F808001u)), 0x3F81);
  // The largest float rounds past the largest BF16 (0x7F7F): infinity.
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x7F7FFFFFu)), 0x7F80);
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x7F7F7FFFu)), 0x7F7F);
  // Subnormal floats keep their top 7 mantissa bits, rounded.
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x00008000u)), 0x0000);  // tie, to even 0
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x00018000u)), 0x0002);  // tie, to even 2
  EXPECT_EQ(float_to_bfloat16_bits(from_bits(0x80010000u)), 0x8001);
  EXPECT_EQ(bfloat16_bits_to_float(0x3F80), 1.0f);
}

TEST(LowPrecision, Tf32RoundsTiesAwayFromZero) {
  // The 13 dropped bits: exactly half (0x1000) rounds away from zero, whatever the kept bit.
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0x3F801000u))), 0x3F802000u);
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0x3F803000u))), 0x3F804000u);
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0xBF801000u))), 0xBF802000u);
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0x3F800FFFu))), 0x3F800000u);
  EXPECT_EQ(bits_of(round_to_tf32(0.1f)), 0x3DCCC000u);  // 0x3DCCCCCD: dropped 0xCCD < 0x1000
  // Past the largest TF32 value: infinity; the largest float is past it.
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0x7F7FEFFFu))), 0x7F7FE000u);
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0x7F7FF000u))), 0x7F800000u);
  EXPECT_EQ(bits_of(round_to_tf32(from_bits(0x00001000u))), 0x00002000u);  // subnormal tie
  EXPECT_EQ(bits_of(round_to_tf32(-0.0f)), 0x80000000u);
  EXPECT_TRUE(std::isinf(round_to_tf32(std::numeric_limits<float>::infinity())));
  EXPECT_TRUE(std::isnan(round_to_tf32(std::numeric_limits<float>::quiet_NaN())));
  // A NaN keeps its sign and payload, cut to TF32's 10 bits and not quieted, as the GPU does.
  EXPECT_EQ(std::bit_cast<std::uint32_t>(round_to_tf32(std::bit_cast<float>(0x7FAF4F0Fu))),
            0x7FAF4000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(round_to_tf32(std::bit_cast<float>(0xFFFC4258u))),
            0xFFFC4000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(round_to_tf32(std::bit_cast<float>(0x7F800001u))),
            0x7F800000u);  // the GPU's cut, not a rounding: a NaN can become infinity
}

TEST(LowPrecision, HalfFmaRoundsOnce) {
  const std::uint16_t one = 0x3C00;
  const std::uint16_t eps = 0x1400;  // 2^-10
  // (1 + 2^-10)² - 1 = 2^-9 + 2^-20; near 2^-9 the step is 2^-19, so 2^-20 is a tie: to even, 2^-9.
  const std::uint16_t one_plus = 0x3C01;
  EXPECT_EQ(half_fma_bits(one_plus, one_plus, 0xBC00), 0x1800);
  // (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21, exactly an FP16 value. Two roundings lose it: the
  // product alone rounds to 1 (2^-11 - 2^-21 is under half a step), and 1 - 1 = 0.
  EXPECT_EQ(half_fma_bits(one_plus, 0x3BFF, 0xBC00),
            float_to_half_bits(static_cast<float>(0x1p-11 - 0x1p-21)));
  EXPECT_NE(half_add_bits(half_mul_bits(one_plus, 0x3BFF), 0xBC00),
            half_fma_bits(one_plus, 0x3BFF, 0xBC00));
  EXPECT_EQ(half_add_bits(one, eps), 0x3C01);
  EXPECT_EQ(half_add_bits(0x7BFF, 0x7BFF), 0x7C00);  // 65504 + 65504: infinity
  EXPECT_EQ(half_mul_bits(0x0001, 0x3800), 0x0000);  // 2^-24 · 0.5: tie, to even 0
  EXPECT_EQ(half_mul_bits(0x8001, 0x3800), 0x8000);  // signed zero
  EXPECT_EQ(half_add_bits(0x8000, 0x8000), 0x8000);  // -0 + -0 = -0
  EXPECT_EQ(half_add_bits(0x3C00, 0xBC00), 0x0000);  // x - x = +0
  EXPECT_EQ(half_add_bits(0x6800, 0x3C00), 0x6800);  // 2048 + 1: half a step, to even
}

TEST(LowPrecision, Bfloat16FmaRoundsOnce) {
  EXPECT_EQ(bfloat16_add_bits(0x3F80, 0x3F80), 0x4000);  // 1 + 1
  EXPECT_EQ(bfloat16_add_bits(0x4B80, 0x3F80), 0x4B80);  // 2^24 + 1: lost
  EXPECT_EQ(bfloat16_mul_bits(0x7F7F, 0x4000), 0x7F80);  // largest · 2: infinity
  EXPECT_EQ(bfloat16_mul_bits(0x0001, 0x3F00), 0x0000);  // smallest subnormal · 0.5: tie to 0
  // a·b + c with a·b needing more than 8 bits: 1.0078125² = 1.01568603515625, + -1 =
  // 0.01568603515625 = 2^-6 · 1.00390625, which BF16 rounds (a tie) to even: 2^-6.
  EXPECT_EQ(bfloat16_fma_bits(0x3F81, 0x3F81, 0xBF80), 0x3C80);
}

TEST(LowPrecision, LayoutsAndRanges) {
  EXPECT_EQ(layout(FloatFormat::kFp16).bits(), 16);
  EXPECT_EQ(layout(FloatFormat::kTf32).bits(), 19);
  EXPECT_EQ(range(FloatFormat::kFp16).max_finite, 65504.0);
  EXPECT_EQ(range(FloatFormat::kFp16).min_subnormal, 0x1p-24);
  EXPECT_EQ(range(FloatFormat::kFp16).min_normal, 0x1p-14);
  EXPECT_EQ(range(FloatFormat::kBf16).step_at_one, 0x1p-7);
  EXPECT_EQ(range(FloatFormat::kTf32).step_at_one, 0x1p-10);
  EXPECT_EQ(range(FloatFormat::kFp32).max_finite,
            static_cast<double>(std::numeric_limits<float>::max()));
  EXPECT_EQ(range(FloatFormat::kFp32).min_subnormal,
            static_cast<double>(std::numeric_limits<float>::denorm_min()));
  EXPECT_EQ(range(FloatFormat::kBf16).max_finite, static_cast<double>(from_bits(0x7F7F0000u)));
}

TEST(LowPrecision, DecodesFields) {
  const DecodedValue d = decode(FloatFormat::kFp16, 0x2E66);
  EXPECT_FALSE(d.negative);
  EXPECT_EQ(d.exponent_field, 11u);
  EXPECT_EQ(d.mantissa_field, 0x266u);
  EXPECT_EQ(d.exponent, -4);
  EXPECT_EQ(d.kind, ValueKind::kNormal);
  EXPECT_EQ(d.value, 0.0999755859375);
  EXPECT_EQ(d.bit_string(), "0 01011 1001100110");
  EXPECT_EQ(decode(FloatFormat::kFp16, 0x0001).kind, ValueKind::kSubnormal);
  EXPECT_EQ(decode(FloatFormat::kFp16, 0x7C00).kind, ValueKind::kInfinity);
  EXPECT_EQ(decode(FloatFormat::kFp16, 0x7FFF).kind, ValueKind::kNaN);
  EXPECT_EQ(decode(FloatFormat::kTf32, format_bits(FloatFormat::kTf32, 1.0f)).value, 1.0);
}

TEST(LowPrecision, TypedValuesShowOverflowAndUnderflow) {
  auto big = round_typed_value(FloatFormat::kFp16, "70000");
  ASSERT_TRUE(big.is_ok());
  EXPECT_TRUE(big->overflowed);
  auto fits = round_typed_value(FloatFormat::kBf16, "70000");
  ASSERT_TRUE(fits.is_ok());
  EXPECT_FALSE(fits->overflowed);
  EXPECT_EQ(fits->decoded.value, 70144.0);  // 70000 = 1.068·2^16, step 2^9: nearest is 137·512
  auto tiny = round_typed_value(FloatFormat::kFp16, "1e-8");
  ASSERT_TRUE(tiny.is_ok());
  EXPECT_TRUE(tiny->underflowed);
  auto sub = round_typed_value(FloatFormat::kFp16, "1e-5");
  ASSERT_TRUE(sub.is_ok());
  EXPECT_TRUE(sub->went_subnormal);
  EXPECT_FALSE(round_typed_value(FloatFormat::kFp16, "one").is_ok());
  EXPECT_FALSE(round_typed_value(FloatFormat::kFp16, "").is_ok());
  EXPECT_FALSE(parse_float_format("fp8").is_ok());
}

}  // namespace
}  // namespace tl::numeric
