#pragma once
// FP16, BF16 and TF32 for the CPU emulator: __half and __nv_bfloat16 as 16-bit words, and the
// CUDA intrinsics the precision kernels use, each rounding exactly as the GPU does
// (core/numeric/low_precision.hpp), so an emulated kernel computes the GPU's bits. Included by
// lessons/08_precision/kernels/precision_emulated.cpp only: the Lab's learners get no __half (its
// headers refuse it).

#include <cstdint>

#include "core/numeric/low_precision.hpp"

namespace tl::emu {

struct __half {
  std::uint16_t bits;
};
struct __nv_bfloat16 {
  std::uint16_t bits;
};
static_assert(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2);

inline __half __float2half_rn(float x) {
  return {numeric::float_to_half_bits(x)};
}
inline float __half2float(__half h) {
  return numeric::half_bits_to_float(h.bits);
}
inline __nv_bfloat16 __float2bfloat16_rn(float x) {
  return {numeric::float_to_bfloat16_bits(x)};
}
inline float __bfloat162float(__nv_bfloat16 b) {
  return numeric::bfloat16_bits_to_float(b.bits);
}
inline __half __hfma(__half a, __half b, __half c) {
  return {numeric::half_fma_bits(a.bits, b.bits, c.bits)};
}
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return {numeric::bfloat16_fma_bits(a.bits, b.bits, c.bits)};
}
inline __half __hadd(__half a, __half b) {
  return {numeric::half_add_bits(a.bits, b.bits)};
}
inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) {
  return {numeric::bfloat16_add_bits(a.bits, b.bits)};
}
inline __half __hmul(__half a, __half b) {
  return {numeric::half_mul_bits(a.bits, b.bits)};
}
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) {
  return {numeric::bfloat16_mul_bits(a.bits, b.bits)};
}
// cvt.rna.tf32.f32, which the kernels' GPU side issues in precision.cuh.
inline float float_to_tf32(float x) {
  return numeric::round_to_tf32(x);
}

}  // namespace tl::emu
