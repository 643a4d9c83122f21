#pragma once
// The precision lesson's launch functions (lessons/08_precision/kernels/precision.cuh), one set per
// executor. FP16 and BF16 arrays travel as 16-bit words (std::uint16_t), FP32 and TF32 ones as
// floats: this header names no CUDA type.

#include <cstdint>

#include "core/launch_config.hpp"
#include "core/numeric/low_precision.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

using numeric::FloatFormat;

// Where sums are kept: in the storage format itself, or in FP32.
enum class Accumulate : std::uint8_t { kSameFormat, kFp32 };

// The largest dot-product block (its tree's shared memory) and the matrix product's tile.
inline constexpr std::uint32_t kPrecisionDotMaxBlock = 1024;
inline constexpr std::uint32_t kPrecisionMatmulTile = 16;

struct PrecisionKernels {
  // out[i] = in[i] rounded to `format`: floats for FP32 (a copy) and TF32, 16-bit words for FP16
  // and BF16. One thread per element.
  Status (*round_floats)(FloatFormat format, const LaunchConfig& config, const float* in, void* out,
                         int n);
  // out[i] = a[i]·b[i] + c[i] rounded once, and out[i] = a[i] + b[i], in `format` (FP32 and TF32:
  // float arithmetic). For the tests that compare the emulator's bits with the GPU's.
  Status (*multiply_add_each)(FloatFormat format, const LaunchConfig& config, const void* a,
                              const void* b, const void* c, void* out, int n);
  Status (*add_each)(FloatFormat format, const LaunchConfig& config, const void* a, const void* b,
                     void* out, int n);
  // One partial sum of a[i]·b[i] per block of `config` (a 1D block, a power of two up to
  // kPrecisionDotMaxBlock), kept in the accumulator's format: 16-bit words for FP16 and BF16
  // accumulated in their own format, floats otherwise.
  Status (*dot_partials)(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                         const void* a, const void* b, int n, void* partials);
  // *out = the `count` partial sums added in order by one thread, widened to float.
  Status (*dot_finish)(FloatFormat format, Accumulate accumulate, const void* partials, int count,
                       float* out);
  // C (m × n floats) = A (m × k) · B (k × n), row-major, in kPrecisionMatmulTile² blocks.
  Status (*matmul)(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                   const void* a, const void* b, float* c, int m, int n, int k);
  Status (*matmul_traced)(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                          const void* a, const void* b, float* c, int m, int n, int k,
                          TraceRecord* records);
};

// TF32 is only ever an input format: no unit adds in TF32, so there is no TF32 accumulator.
inline Status check_accumulator(FloatFormat format, Accumulate accumulate) {
  if (format == FloatFormat::kTf32 && accumulate == Accumulate::kSameFormat) {
    return invalid_argument(
        "TF32 is an input format only (tensor cores read it and add in FP32): there is no TF32 "
        "accumulator.");
  }
  return Status::ok();
}

inline Status check_dot_block(const LaunchConfig& config) {
  const std::uint32_t x = config.block.x;
  if (config.block.y != 1 || config.block.z != 1 || x < 32 || x > kPrecisionDotMaxBlock ||
      (x & (x - 1)) != 0 || config.grid.y != 1 || config.grid.z != 1) {
    return invalid_argument(
        "the dot product takes a 1D grid of 1D blocks of 32 to 1024 threads, a power of two (its "
        "tree halves the block), not " +
        config.to_string() + ".");
  }
  return Status::ok();
}

}  // namespace tl::kernels
