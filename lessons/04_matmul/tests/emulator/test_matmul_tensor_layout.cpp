// Lesson 4's tensor-core rungs on the host: the fragment layout the lesson draws (spot checks
// against the PTX ISA's figures for mma.m16n8k16, and the inverse), and the roundings that model
// what the tensor cores multiply.

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>

#include "lessons/04_matmul/kernels/matmul_tensor_layout.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"

namespace tl::lessons {
namespace {

using kernels::FragmentElement;
using kernels::mma_element;

TEST(MatmulTensorLayout, MatchesThePtxFiguresAtTheirCorners) {
  // The PTX ISA's figure for A (m16n8k16, .f16): T0 holds a0,a1 at row 0, cols 0-1; a2,a3 at row 8;
  // a4,a5 at cols 8-9; T5 (groupID 1, threadID_in_group 1) starts at row 1, col 2; T31 ends at
  // row 15, col 15.
  EXPECT_EQ(mma_element(MmaOperand::kA, 0, 0), (FragmentElement{0, 0}));
  EXPECT_EQ(mma_element(MmaOperand::kA, 0, 1), (FragmentElement{0, 1}));
  EXPECT_EQ(mma_element(MmaOperand::kA, 0, 2), (FragmentElement{8, 0}));
  EXPECT_EQ(mma_element(MmaOperand::kA, 0, 4), (FragmentElement{0, 8}));
  EXPECT_EQ(mma_element(MmaOperand::kA, 5, 0), (FragmentElement{1, 2}));
  EXPECT_EQ(mma_element(MmaOperand::kA, 31, 7), (FragmentElement{15, 15}));
  // B (16 k × 8 n): T0 holds k 0-1 of column 0 and k 8-9; T4 column 1; T3 k 6-7 and 14-15.
  EXPECT_EQ(mma_element(MmaOperand::kB, 0, 0), (FragmentElement{0, 0}));
  EXPECT_EQ(mma_element(MmaOperand::kB, 0, 1), (FragmentElement{1, 0}));
  EXPECT_EQ(mma_element(MmaOperand::kB, 0, 2), (FragmentElement{8, 0}));
  EXPECT_EQ(mma_element(MmaOperand::kB, 4, 0), (FragmentElement{0, 1}));
  EXPECT_EQ(mma_element(MmaOperand::kB, 3, 3), (FragmentElement{15, 0}));
  // C (16 × 8 float): T0 c0,c1 at row 0, cols 0-1, c2,c3 at row 8; T31 ends at row 15, col 7.
  EXPECT_EQ(mma_element(MmaOperand::kC, 0, 1), (FragmentElement{0, 1}));
  EXPECT_EQ(mma_element(MmaOperand::kC, 0, 2), (FragmentElement{8, 0}));
  EXPECT_EQ(mma_element(MmaOperand::kC, 31, 3), (FragmentElement{15, 7}));
}

TEST(MatmulTensorLayout, EveryElementHasExactlyOneOwner) {
  for (MmaOperand operand : {MmaOperand::kA, MmaOperand::kB, MmaOperand::kC}) {
    const std::vector<FragmentCell> cells = fragment_cells(operand);
    ASSERT_EQ(cells.size(), 32u * static_cast<std::size_t>(kernels::mma_per_lane(operand)));
    std::set<std::pair<int, int>> owners;
    for (const FragmentCell& cell : cells) {
      EXPECT_EQ(mma_element(operand, cell.lane, cell.index), (FragmentElement{cell.row, cell.col}));
      EXPECT_TRUE(owners.insert({cell.lane, cell.index}).second);
    }
  }
}

TEST(MatmulTensorLayout, NamesRegistersAsThePtxIsaDoes) {
  EXPECT_EQ(describe_fragment_element(MmaOperand::kA, 5), "a5: register 2 (a4a5), high 16 bits");
  EXPECT_EQ(describe_fragment_element(MmaOperand::kB, 2), "b2: register 1 (b2b3), low 16 bits");
  EXPECT_EQ(describe_fragment_element(MmaOperand::kC, 3), "c3: one float register");
}

TEST(MatmulTensorRounding, Fp16RoundsToNearestEven) {
  EXPECT_EQ(float_to_fp16_bits(1.0f), 0x3C00);
  EXPECT_EQ(float_to_fp16_bits(-2.0f), 0xC000);
  EXPECT_EQ(float_to_fp16_bits(65504.0f), 0x7BFF);  // the largest half
  EXPECT_EQ(float_to_fp16_bits(65519.0f), 0x7BFF);  // below the halfway point
  EXPECT_EQ(float_to_fp16_bits(65520.0f), 0x7C00);  // halfway: to even, which is infinity
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(1.0f, -24)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(1.0f, -25)), 0x0000);  // halfway to it: to even, 0
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units: to even, 2
  EXPECT_EQ(float_to_fp16_bits(std::ldexp(1.0f, -14)), 0x0400);  // the smallest normal
  // 1 + 2⁻¹¹ lies halfway between 1 and 1 + 2⁻¹⁰: to even keeps 1; 1 + 3·2⁻¹¹ goes up.
  EXPECT_EQ(float_to_fp16_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(float_to_fp16_bits(1.0f + std::ldexp(3.0f, -11)), 0x3C02);
  EXPECT_TRUE(std::isnan(fp16_bits_to_float(float_to_fp16_bits(std::nanf("")))));
  // Every half converts to a float and back to itself.
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7C00) == 0x7C00 && (bits & 0x3FF) != 0) continue;  // NaNs
    const auto half = static_cast<std::uint16_t>(bits);
    ASSERT_EQ(float_to_fp16_bits(fp16_bits_to_float(half)), half) << bits;
  }
}

TEST(MatmulTensorRounding, Bf16KeepsTheTopSixteenBitsRoundedToEven) {
  EXPECT_EQ(float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(bf16_bits_to_float(0x3F80), 1.0f);
  // 1 + 2⁻⁸ is halfway between 1 and 1 + 2⁻⁷: to even, 1; 1 + 3·2⁻⁸ rounds up to 1 + 2⁻⁶.
  EXPECT_EQ(float_to_bf16_bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(float_to_bf16_bits(1.0f + std::ldexp(3.0f, -8)), 0x3F82);
  EXPECT_EQ(float_to_bf16_bits(3.0e38f), 0x7F62);  // float32's range survives
}

TEST(MatmulTensorRounding, Tf32RoundsToNearestTiesAway) {
  EXPECT_EQ(round_to_tf32(1.0f), 1.0f);
  // 1 + 2⁻¹¹ is halfway between 1 and 1 + 2⁻¹⁰: cvt.rna goes away from zero.
  EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(round_to_tf32(-1.0f - std::ldexp(1.0f, -11)), -1.0f - std::ldexp(1.0f, -10));
  EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -12)), 1.0f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(round_to_tf32(0.1f)) & 0x1FFFu, 0u);
}

TEST(MatmulTensorRounding, AProductOfRoundedInputsIsExactInFloat) {
  // Why the check's reference may be float32: 11 significant bits times 11 fit in 24.
  for (float x : {0.1f, 0.7f, -0.33f, 1.9f}) {
    for (float y : {0.3f, -0.9f, 1.2345f}) {
      for (MatmulInput input : {MatmulInput::kFp16, MatmulInput::kBf16, MatmulInput::kTf32}) {
        const float a = rounded_input(x, input), b = rounded_input(y, input);
        EXPECT_EQ(static_cast<double>(a * b), static_cast<double>(a) * static_cast<double>(b));
      }
    }
  }
}

TEST(MatmulTensorRounding, TheEmulatorHasNoTensorCores) {
  DeviceInfo emulator;  // compute_major 0
  const Status refused = tensor_rung_available(emulator, MatmulKernel::kMmaFp16);
  EXPECT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("mma-fp16"), std::string::npos) << refused.message();
  DeviceInfo turing;
  turing.compute_major = 7;
  turing.compute_minor = 5;
  EXPECT_NE(tensor_rung_available(turing, MatmulKernel::kWmmaFp16).message().find("7.5"),
            std::string::npos);
  DeviceInfo hopper;
  hopper.compute_major = 9;
  EXPECT_TRUE(tensor_rung_available(hopper, MatmulKernel::kWmmaTf32).is_ok());
  EXPECT_TRUE(tensor_rung_available(hopper, MatmulKernel::kWgmmaFp16).is_ok());
  EXPECT_TRUE(tensor_rung_available(hopper, MatmulKernel::kWgmmaTmaFp16).is_ok());
  EXPECT_TRUE(tensor_rung_available(hopper, MatmulKernel::kWgmmaTmaBf16).is_ok());
}

// sm_90a code runs on compute capability 9.0 alone: neither Ampere nor a later GPU gets a wgmma
// rung, and the reason names the rung and the device's capability.
TEST(MatmulTensorRounding, TheWgmmaRungRunsOnHopperAlone) {
  for (const auto& [major, minor] : {std::pair{8, 0}, std::pair{8, 9}, std::pair{10, 0}}) {
    DeviceInfo gpu;
    gpu.compute_major = major;
    gpu.compute_minor = minor;
    EXPECT_TRUE(tensor_rung_available(gpu, MatmulKernel::kMmaFp16).is_ok());
    for (const MatmulKernel wgmma :
         {MatmulKernel::kWgmmaFp16, MatmulKernel::kWgmmaTmaFp16, MatmulKernel::kWgmmaTmaBf16}) {
      const Status refused = tensor_rung_available(gpu, wgmma);
      EXPECT_FALSE(refused.is_ok());
      EXPECT_NE(refused.message().find(std::to_string(major) + "." + std::to_string(minor)),
                std::string::npos)
          << refused.message();
      EXPECT_NE(refused.message().find(std::string(to_string(wgmma))), std::string::npos)
          << refused.message();
    }
  }
}

}  // namespace
}  // namespace tl::lessons
