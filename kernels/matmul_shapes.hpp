#pragma once
// The matrix-multiply kernels and the shapes they are compiled for. The kernels own these facts:
// the register-tiled rungs hard-code their block tiles, and each kernel (kernels/matmul_*.cuh)
// static_asserts that it agrees with matmul_block_tile. Lesson 4's model (lessons/04_matmul)
// re-exports them; no CUDA here.

#include <cstdint>
#include <optional>
#include <string_view>

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
};

// Every rung in ladder order: the lesson times them all side by side.
inline constexpr MatmulKernel kMatmulLadder[] = {
    MatmulKernel::kUncoalesced, MatmulKernel::kNaive,     MatmulKernel::kTiled,
    MatmulKernel::kRegtile1d,   MatmulKernel::kRegtile2d, MatmulKernel::kVectorized,
    MatmulKernel::kWarptile};

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
};

// "uncoalesced", "naive", "tiled", "regtile-1d", "regtile-2d", "vectorized", "warptile".
[[nodiscard]] constexpr std::string_view to_string(MatmulKernel kernel) {
  for (const MatmulKernelName& entry : kMatmulKernelNames) {
    if (entry.kernel == kernel) return entry.name;
  }
  return "?";
}

// The tile sizes the tiled kernel is compiled for.
inline constexpr std::uint32_t kMatmulTiles[] = {8, 16, 32};

// The register-tiled rungs have a fixed shape, compiled into the kernel: a block of `threads`
// threads (1D) computes a tile_m × tile_n tile of C, walking along K tile_k at a time.
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
      return MatmulBlockTile{128, 128, 16, 256};
    default:
      return std::nullopt;
  }
}

}  // namespace tl::kernels
