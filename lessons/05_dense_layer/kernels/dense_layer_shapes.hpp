#pragma once
// What the dense-layer kernels (lessons/05_dense_layer/kernels/dense_layer.cuh,
// dense_gemm_pipelined.cuh) are compiled for: the largest block their shared-memory tiles hold, the
// batch where the fast product switches from a matrix-vector product to the pipelined GEMM, and the
// launch the fast kernels require. Lesson 5's model (lessons/05_dense_layer) re-exports them; no
// CUDA here.

#include <cstdint>
#include <string>

#include "core/launch_config.hpp"
#include "core/result.hpp"

namespace tl::kernels {

// Below this batch the fast product is a matrix-vector product per batch row; from it on, a tiled
// matrix product fed by asynchronous copies
// (lessons/05_dense_layer/kernels/dense_gemm_pipelined.cuh).
inline constexpr std::uint64_t kDenseGemvMaxBatch = 8;

// The product keeps a tile of W for the block's neurons and a tile of X for its batch rows in
// shared memory, sized for at most 32 of each (lessons/05_dense_layer/kernels/dense_layer.cuh
// asserts it agrees).
inline constexpr std::uint32_t kDenseLayerMaxBlockX = 32;
inline constexpr std::uint32_t kDenseLayerMaxBlockY = 32;

// The launch shape the dense-layer kernels accept: a 2D grid of 2D blocks over Y, x along the
// neurons and y along the batch rows. Grids too small or too large are allowed (elements left
// unwritten, idle threads); a block larger than the shared-memory tiles is refused.
inline Status validate_dense_layer_launch(const LaunchConfig& config) {
  const Dim3& block = config.block;
  if (block.x > kDenseLayerMaxBlockX || block.y > kDenseLayerMaxBlockY) {
    return invalid_argument(
        "block " + to_string(block) + " is too large for the dense-layer kernels: a block keeps " +
        "the weights of its neurons (block x) and the inputs of its batch rows (block y) in "
        "shared memory, sized for at most " +
        std::to_string(kDenseLayerMaxBlockX) + " × " + std::to_string(kDenseLayerMaxBlockY) +
        ". Try a block of 32 × 8.");
  }
  if (block.z != 1 || config.grid.z != 1) {
    return invalid_argument(
        "the dense-layer kernels use a 2D grid of 2D blocks (x: neurons, "
        "y: batch rows); the z dimensions must be 1, got grid " +
        to_string(config.grid) + " and block " + to_string(block) + ".");
  }
  return Status::ok();
}

// The launch of the fast product, fixed by its kernels (with 33 KiB of dynamic shared memory for
// the GEMM): blocks of 256 threads, over (ceil(out / 8), batch) for the GEMV, over 128×128 tiles of
// Y for the GEMM.
[[nodiscard]] inline LaunchConfig dense_layer_fast_config(std::uint64_t batch, std::uint64_t out) {
  const auto ceil_div = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint32_t>((a + b - 1) / b);
  };
  if (batch < kDenseGemvMaxBatch) {
    return {{ceil_div(out, 8), static_cast<std::uint32_t>(batch), 1}, {256, 1, 1}};
  }
  return {{ceil_div(out, 128), ceil_div(batch, 128), 1}, {256, 1, 1}};
}

}  // namespace tl::kernels
