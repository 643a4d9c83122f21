#pragma once
// The matrix-multiply kernels and the shapes they are compiled for. The kernels own these facts:
// the register-tiled rungs hard-code their block tiles, and each kernel (kernels/matmul_*.cuh)
// static_asserts that it agrees with matmul_block_tile. Lesson 4's model (lessons/04_matmul)
// re-exports them; no CUDA here.

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/numeric/low_precision.hpp"  // FloatFormat

namespace tl::kernels {

// The ladder of kernels lesson 4 climbs, slowest first. Each rung changes one thing.
enum class MatmulKernel {
  kUncoalesced,  // one thread per element, x picking the row: a warp's reads are scattered
  kNaive,        // one thread per element, x picking the column: reads of B coalesced
  kTiled,        // TILE×TILE blocks staging tiles of A and B in shared memory
  kRegtile1d,    // each thread computes 8 elements of a column in registers (64×64 block tiles)
  kRegtile2d,    // each thread computes an 8×8 square in registers (128×128 block tiles)
  kVectorized,   // as 2D, with float4 loads and a transposed A tile in shared memory
  kWarptile,     // as vectorised, tiles split per warp, double-buffered shared memory
  kPipelined,    // warptile's mapping, tiles copied by a cp.async pipeline, shape tuned per device
  // Tensor cores (lessons/04_matmul/kernels/matmul_wmma.cuh, matmul_mma.cuh): inputs in a lower
  // precision, float32 accumulation, on compute capability 8.0 and newer; not emulated on the CPU.
  kWmmaFp16,  // WMMA 16×16×16 fragments, FP16 inputs
  kWmmaBf16,  // the same with BF16 inputs
  kWmmaTf32,  // WMMA 16×16×8 fragments, the float inputs rounded to TF32 in the kernel
  kMmaFp16,   // mma.sync m16n8k16 with ldmatrix and a cp.async pipeline, FP16 inputs
  // wgmma m64n256k16 (a warpgroup's instruction, operands read from swizzled shared memory), FP16
  // inputs; Hopper (compute capability 9.0) alone (lessons/04_matmul/kernels/matmul_wgmma.cuh).
  kWgmmaFp16,
  // The same instruction fed by the tensor-memory accelerator (TMA), the warps split into a
  // producer and two consumers synchronised by mbarriers; FP16 or BF16 inputs, Hopper alone
  // (lessons/04_matmul/kernels/matmul_wgmma_tma.cuh).
  kWgmmaTmaFp16,
  kWgmmaTmaBf16,
};

// Every rung in ladder order: the lesson times them all side by side.
inline constexpr MatmulKernel kMatmulLadder[] = {
    MatmulKernel::kUncoalesced, MatmulKernel::kNaive,     MatmulKernel::kTiled,
    MatmulKernel::kRegtile1d,   MatmulKernel::kRegtile2d, MatmulKernel::kVectorized,
    MatmulKernel::kWarptile,    MatmulKernel::kPipelined};

// The tensor-core rungs, timed beside the ladder where the device has tensor cores; each is
// compared with cuBLAS at its own precision.
inline constexpr MatmulKernel kMatmulTensorRungs[] = {
    MatmulKernel::kWmmaFp16,    MatmulKernel::kWmmaBf16,  MatmulKernel::kWmmaTf32,
    MatmulKernel::kMmaFp16,     MatmulKernel::kWgmmaFp16, MatmulKernel::kWgmmaTmaFp16,
    MatmulKernel::kWgmmaTmaBf16};

// What a kernel multiplies: the lesson's float matrices, or copies rounded to a tensor-core
// input format. Every rung accumulates in float32 and writes C as float32.
enum class MatmulInput {
  kFp32,  // float32 (the FP32 ladder)
  kFp16,  // IEEE half: 1 sign, 5 exponent, 10 stored significand bits
  kBf16,  // bfloat16: 1 sign, 8 exponent (float32's range), 7 stored significand bits
  kTf32,  // TensorFloat-32: float32 in memory, rounded to 10 stored significand bits
};
// The same format in the app's own terms, for the libraries the lesson measures against (cuBLAS).
[[nodiscard]] constexpr numeric::FloatFormat float_format(MatmulInput input) {
  switch (input) {
    case MatmulInput::kFp16:
      return numeric::FloatFormat::kFp16;
    case MatmulInput::kBf16:
      return numeric::FloatFormat::kBf16;
    case MatmulInput::kTf32:
      return numeric::FloatFormat::kTf32;
    case MatmulInput::kFp32:
      break;
  }
  return numeric::FloatFormat::kFp32;
}
[[nodiscard]] constexpr MatmulInput matmul_input(MatmulKernel kernel) {
  switch (kernel) {
    case MatmulKernel::kWmmaFp16:
    case MatmulKernel::kMmaFp16:
    case MatmulKernel::kWgmmaFp16:
    case MatmulKernel::kWgmmaTmaFp16:
      return MatmulInput::kFp16;
    case MatmulKernel::kWmmaBf16:
    case MatmulKernel::kWgmmaTmaBf16:
      return MatmulInput::kBf16;
    case MatmulKernel::kWmmaTf32:
      return MatmulInput::kTf32;
    default:
      return MatmulInput::kFp32;
  }
}
[[nodiscard]] constexpr bool is_tensor_rung(MatmulKernel kernel) {
  return matmul_input(kernel) != MatmulInput::kFp32;
}
// "FP32", "FP16", "BF16", "TF32".
[[nodiscard]] constexpr std::string_view to_string(MatmulInput input) {
  switch (input) {
    case MatmulInput::kFp16:
      return "FP16";
    case MatmulInput::kBf16:
      return "BF16";
    case MatmulInput::kTf32:
      return "TF32";
    default:
      return "FP32";
  }
}
// The lowest compute capability (major × 10 + minor) the tensor rungs are compiled for: BF16 and
// TF32 fragments, m16n8k16 and cp.async all arrived with Ampere.
inline constexpr int kMatmulTensorMinCapability = 80;
// The wgmma rungs' one compute capability: sm_90a code runs on 9.0 alone.
inline constexpr int kMatmulWgmmaCapability = 90;
[[nodiscard]] constexpr bool is_wgmma_rung(MatmulKernel kernel) {
  return kernel == MatmulKernel::kWgmmaFp16 || kernel == MatmulKernel::kWgmmaTmaFp16 ||
         kernel == MatmulKernel::kWgmmaTmaBf16;
}

// The names the command line, the links and the timing rows use.
struct MatmulKernelName {
  MatmulKernel kernel;
  std::string_view name;
};
inline constexpr MatmulKernelName kMatmulKernelNames[] = {
    {MatmulKernel::kUncoalesced, "uncoalesced"},
    {MatmulKernel::kNaive, "naive"},
    {MatmulKernel::kTiled, "tiled"},
    {MatmulKernel::kRegtile1d, "regtile-1d"},
    {MatmulKernel::kRegtile2d, "regtile-2d"},
    {MatmulKernel::kVectorized, "vectorized"},
    {MatmulKernel::kWarptile, "warptile"},
    {MatmulKernel::kPipelined, "pipelined"},
    {MatmulKernel::kWmmaFp16, "wmma-fp16"},
    {MatmulKernel::kWmmaBf16, "wmma-bf16"},
    {MatmulKernel::kWmmaTf32, "wmma-tf32"},
    {MatmulKernel::kMmaFp16, "mma-fp16"},
    {MatmulKernel::kWgmmaFp16, "wgmma-fp16"},
    {MatmulKernel::kWgmmaTmaFp16, "wgmma-tma-fp16"},
    {MatmulKernel::kWgmmaTmaBf16, "wgmma-tma-bf16"},
};

// "uncoalesced", "naive", "tiled", "regtile-1d", "regtile-2d", "vectorized", "warptile",
// "pipelined", "wmma-fp16", "wmma-bf16", "wmma-tf32", "mma-fp16", "wgmma-fp16", "wgmma-tma-fp16",
// "wgmma-tma-bf16".
[[nodiscard]] constexpr std::string_view to_string(MatmulKernel kernel) {
  for (const MatmulKernelName& entry : kMatmulKernelNames) {
    if (entry.kernel == kernel) return entry.name;
  }
  return "?";
}

// The tile sizes the tiled kernel is compiled for.
inline constexpr std::uint32_t kMatmulTiles[] = {8, 16, 32};

// The register-tiled and tensor-core rungs have a fixed shape, compiled into the kernel: a block of
// `threads` threads (1D) computes a tile_m × tile_n tile of C, walking along K tile_k at a time.
struct MatmulBlockTile {
  std::uint32_t tile_m = 0;
  std::uint32_t tile_n = 0;
  std::uint32_t tile_k = 0;
  std::uint32_t threads = 0;
};
// The shape of a register-tiled rung; nullopt for the rungs whose block the user picks.
[[nodiscard]] constexpr std::optional<MatmulBlockTile> matmul_block_tile(MatmulKernel kernel) {
  switch (kernel) {
    case MatmulKernel::kRegtile1d:
      return MatmulBlockTile{64, 64, 8, 512};
    case MatmulKernel::kRegtile2d:
    case MatmulKernel::kVectorized:
      return MatmulBlockTile{128, 128, 8, 256};
    case MatmulKernel::kWarptile:
    case MatmulKernel::kPipelined:  // tile_k: the lesson's shape; the GPU may tune it (8 or 16)
      return MatmulBlockTile{128, 128, 16, 256};
    case MatmulKernel::kWmmaFp16:
    case MatmulKernel::kWmmaBf16:
    case MatmulKernel::kWmmaTf32:
      return MatmulBlockTile{64, 64, 32, 128};
    case MatmulKernel::kMmaFp16:
      return MatmulBlockTile{128, 128, 64, 128};
    case MatmulKernel::kWgmmaFp16:
      return MatmulBlockTile{128, 256, 64, 256};
    case MatmulKernel::kWgmmaTmaFp16:  // a producer warpgroup and two consumers
    case MatmulKernel::kWgmmaTmaBf16:
      return MatmulBlockTile{128, 256, 64, 384};
    default:
      return std::nullopt;
  }
}

}  // namespace tl::kernels
