#pragma once
// Lesson 4's tensor-core rungs, on the host: the inputs as the tensor cores see them (rounded to
// FP16, BF16 or TF32, bit for bit as the GPU's conversions round), and the check's allowance. No
// CUDA here; the kernels are lessons/04_matmul/kernels/matmul_wmma.cuh and
// lessons/04_matmul/kernels/matmul_mma.cuh, the fragment layout the lesson draws is
// lessons/04_matmul/kernels/matmul_tensor_layout.hpp.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/result.hpp"
#include "lessons/04_matmul/kernels/matmul_shapes.hpp"
#include "lessons/04_matmul/kernels/matmul_tensor_layout.hpp"

namespace tl::lessons {

using kernels::is_tensor_rung;
using kernels::kMatmulTensorRungs;
using kernels::matmul_input;
using kernels::MatmulInput;
using kernels::MatmulKernel;

// IEEE half precision, round to nearest even, as __float2half_rn: magnitudes from 65520 up become
// infinity, those below 2⁻¹⁴ subnormal halves, NaN stays NaN.
[[nodiscard]] std::uint16_t float_to_fp16_bits(float value);
[[nodiscard]] float fp16_bits_to_float(std::uint16_t bits);
// bfloat16, round to nearest even, as __float2bfloat16_rn: the top 16 bits of the float.
[[nodiscard]] std::uint16_t float_to_bf16_bits(float value);
[[nodiscard]] float bf16_bits_to_float(std::uint16_t bits);
// TF32 as cvt.rna.tf32.f32 (WMMA's __float_to_tf32): nearest, ties away from zero, keeping 10
// stored significand bits; the result is still a float.
[[nodiscard]] float round_to_tf32(float value);

// The value the tensor core multiplies for `value` (kFp32: unchanged).
[[nodiscard]] float rounded_input(float value, MatmulInput input);
// A whole matrix rounded so: the reference of a tensor rung is the product of these.
[[nodiscard]] std::vector<float> rounded_inputs(std::span<const float> values, MatmulInput input);
// The 16-bit words a FP16 or BF16 rung reads (the copies the runner uploads).
[[nodiscard]] std::vector<std::uint16_t> sixteen_bit_inputs(std::span<const float> values,
                                                            MatmulInput input);

// ---- The fragment layout, for the "Tensor fragments" tab ---------------------------------------
using kernels::MmaOperand;

// One element of an operand of mma.sync.m16n8k16 and who holds it (the PTX ISA's layout,
// lessons/04_matmul/kernels/matmul_tensor_layout.hpp).
struct FragmentCell {
  int row = 0;                                                     // for B: k
  int col = 0;                                                     // for B: n
  int lane = 0;                                                    // 0..31
  int index = 0;                                                   // a0..a7, b0..b3, c0..c3
  [[nodiscard]] int group() const { return lane / 4; }             // the PTX ISA's groupID
  [[nodiscard]] int thread_in_group() const { return lane % 4; }   // threadID_in_group
  [[nodiscard]] int register_number() const { return index / 2; }  // 16-bit operands: 2 per reg
};
// Every element of the operand, row by row: 256 for A (16×16), 128 for B (16×8) and C (16×8).
[[nodiscard]] std::vector<FragmentCell> fragment_cells(MmaOperand operand);
// "a5: register 2 (a4a5), high half" / "c2"; C holds one float per register.
[[nodiscard]] std::string describe_fragment_element(MmaOperand operand, int index);

// Whether `device` can run a tensor rung: a GPU of compute capability 8.0 or newer. The emulator
// has no tensor cores and does not imitate them (lessons/04_matmul/kernels/matmul_kernels.hpp says
// why); the reason comes back as the error.
Status tensor_rung_available(const DeviceInfo& device, MatmulKernel kernel);

// The check's allowance for a tensor rung, as a multiple of matmul_tolerance (which allows two
// float32 computations of the same sums, 2·K·2⁻²⁴ · ‖row‖‖column‖). The inputs are the rounded
// ones on both sides, so what remains is the accumulation: the products of FP16, BF16 or TF32
// inputs are exact in float32, and the tensor core adds them in float32 but may truncate where an
// IEEE addition rounds (at most one unit in the last place, u = 2⁻²³, where rounding has 2⁻²⁴), so
// its sum is allowed twice the reference's error: 3·K·2⁻²⁴ in all.
inline constexpr double kTensorToleranceScale = 1.5;

}  // namespace tl::lessons
