#include "matmul_tensor.hpp"

#include <bit>
#include <cmath>
#include <string>

#include "lessons/04_matmul/kernels/matmul_kernels.hpp"  // kTensorRungsNotEmulated

namespace tl::lessons {

std::uint16_t float_to_fp16_bits(float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) {  // infinity, or NaN (kept quiet)
    return static_cast<std::uint16_t>(sign | (magnitude > 0x7F800000u ? 0x7E00u : 0x7C00u));
  }
  // 65520 lies halfway between the largest half, 65504, and 65536: to even is upwards, infinity.
  if (magnitude >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (magnitude < 0x38800000u) {
    // Below 2⁻¹⁴: a subnormal half counts units of 2⁻²⁴. Scaling by 2²⁴ is exact, and nearbyint
    // rounds to nearest even; 1024 units is the smallest normal half, which the bits spell too.
    const float units = std::nearbyint(std::bit_cast<float>(magnitude) * 16777216.0f);
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(units));
  }
  const std::uint32_t exponent = (magnitude >> 23) - 127 + 15;
  const std::uint32_t significand = magnitude & 0x7FFFFFu;
  std::uint32_t half = (exponent << 10) | (significand >> 13);
  const std::uint32_t rest = significand & 0x1FFFu;  // the 13 bits that do not fit
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;  // may carry: fine
  return static_cast<std::uint16_t>(sign | half);
}

float fp16_bits_to_float(std::uint16_t bits) {
  const std::uint32_t sign = (static_cast<std::uint32_t>(bits) & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  const std::uint32_t significand = bits & 0x3FFu;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(significand), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7F800000u | (significand << 13));
  return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (significand << 13));
}

std::uint16_t float_to_bf16_bits(float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
  const std::uint32_t lowest_kept = (bits >> 16) & 1u;
  return static_cast<std::uint16_t>((bits + 0x7FFFu + lowest_kept) >> 16);
}

float bf16_bits_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

float round_to_tf32(float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & 0x7F800000u) == 0x7F800000u) return value;  // infinity and NaN as they are
  return std::bit_cast<float>((bits + 0x1000u) & ~0x1FFFu);
}

float rounded_input(float value, MatmulInput input) {
  switch (input) {
    case MatmulInput::kFp16:
      return fp16_bits_to_float(float_to_fp16_bits(value));
    case MatmulInput::kBf16:
      return bf16_bits_to_float(float_to_bf16_bits(value));
    case MatmulInput::kTf32:
      return round_to_tf32(value);
    default:
      return value;
  }
}

std::vector<float> rounded_inputs(std::span<const float> values, MatmulInput input) {
  std::vector<float> rounded(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) rounded[i] = rounded_input(values[i], input);
  return rounded;
}

std::vector<std::uint16_t> sixteen_bit_inputs(std::span<const float> values, MatmulInput input) {
  std::vector<std::uint16_t> words(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    words[i] =
        input == MatmulInput::kBf16 ? float_to_bf16_bits(values[i]) : float_to_fp16_bits(values[i]);
  }
  return words;
}

Status tensor_rung_available(const DeviceInfo& device, MatmulKernel kernel) {
  const std::string rung(kernels::to_string(kernel));
  if (device.compute_major == 0) {
    return Error{ErrorKind::kNoDevice, "the " + rung + " rung needs a GPU's tensor cores: " +
                                           std::string(kernels::kTensorRungsNotEmulated)};
  }
  const int capability = device.compute_major * 10 + device.compute_minor;
  if (capability < kernels::kMatmulTensorMinCapability) {
    return Error{ErrorKind::kInvalidArgument,
                 "the " + rung +
                     " rung is compiled for compute capability 8.0 and newer (BF16 and TF32 "
                     "fragments, mma.m16n8k16 and cp.async arrived with Ampere); this GPU is " +
                     std::to_string(device.compute_major) + "." +
                     std::to_string(device.compute_minor)};
  }
  if (kernels::is_wgmma_rung(kernel) && capability != kernels::kMatmulWgmmaCapability) {
    return Error{ErrorKind::kInvalidArgument,
                 "the " + rung +
                     " rung uses Hopper's warpgroup instructions, compiled for compute "
                     "capability 9.0 alone (sm_90a); this GPU is " +
                     std::to_string(device.compute_major) + "." +
                     std::to_string(device.compute_minor)};
  }
  return Status::ok();
}

std::vector<FragmentCell> fragment_cells(MmaOperand operand) {
  std::vector<FragmentCell> cells;
  for (int row = 0; row < kernels::mma_rows(operand); ++row) {
    for (int col = 0; col < kernels::mma_cols(operand); ++col) {
      const kernels::FragmentSlot slot = kernels::mma_slot(operand, row, col);
      cells.push_back({row, col, slot.lane, slot.index});
    }
  }
  return cells;
}

std::string describe_fragment_element(MmaOperand operand, int index) {
  const char letter = kernels::mma_operand_letter(operand);
  const std::string name = std::string(1, letter) + std::to_string(index);
  if (operand == MmaOperand::kC) return name + ": one float register";
  const int first = index / 2 * 2;
  return name + ": register " + std::to_string(index / 2) + " (" + letter + std::to_string(first) +
         letter + std::to_string(first + 1) + "), " + (index % 2 == 0 ? "low" : "high") +
         " 16 bits";
}

}  // namespace tl::lessons
