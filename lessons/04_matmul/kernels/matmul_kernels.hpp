#pragma once
// Lesson 4's launch functions (lessons/04_matmul/kernels/matmul.cuh), one set per executor.
// Matrices are row-major float arrays: A is m×k, B is k×n, C is m×n.

#include <string>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "lessons/04_matmul/kernels/matmul_shapes.hpp"

namespace tl::kernels {

struct MatmulKernels {
  // Any 2D block; x runs along the columns of C, y along its rows.
  Status (*naive)(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                  int n, int k);
  // `tile` is 8, 16 or 32 and picks the matmul_tiled<TILE> instantiation; the block must be
  // tile×tile threads.
  Status (*tiled)(const LaunchConfig& config, int tile, const float* a, const float* b, float* c,
                  int m, int n, int k);
  Status (*naive_traced)(const LaunchConfig& config, const float* a, const float* b, float* c,
                         int m, int n, int k, TraceRecord* trace);
  Status (*tiled_traced)(const LaunchConfig& config, int tile, const float* a, const float* b,
                         float* c, int m, int n, int k, TraceRecord* trace);
  // Any 2D block; x runs along the rows of C, y along its columns (deliberately uncoalesced).
  Status (*uncoalesced)(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                        int n, int k);
  Status (*uncoalesced_traced)(const LaunchConfig& config, const float* a, const float* b, float* c,
                               int m, int n, int k, TraceRecord* trace);
  // A register-tiled rung (regtile-1d, regtile-2d, vectorized, warptile, pipelined): the block must
  // be its fixed thread count (matmul_block_tile), checked by check_block_tile_launch.
  Status (*block_tiled)(const LaunchConfig& config, MatmulKernel kernel, const float* a,
                        const float* b, float* c, int m, int n, int k);
  Status (*block_tiled_traced)(const LaunchConfig& config, MatmulKernel kernel, const float* a,
                               const float* b, float* c, int m, int n, int k, TraceRecord* trace);
  // A tensor-core rung (wmma-fp16, wmma-bf16, wmma-tf32, mma-fp16; is_tensor_rung): `a` and `b`
  // hold the inputs in the rung's format (matmul_input): 16-bit words for FP16 and BF16, floats for
  // TF32. The block must be the rung's thread count (check_block_tile_launch). A null `trace`
  // launches the timed kernel. The emulator has no tensor cores: its entry refuses with the reason
  // (kTensorRungsNotEmulated).
  Status (*tensor)(const LaunchConfig& config, MatmulKernel kernel, const void* a, const void* b,
                   float* c, int m, int n, int k, TraceRecord* trace);
  // One warp reads back what a real ldmatrix and mma.sync m16n8k16 put in each lane's registers
  // (lessons/04_matmul/kernels/matmul_mma.cuh, matmul_mma_layout_probe): 256 floats into a_out and
  // b_out, 128 into c_out, device memory. The GPU test compares them with
  // lessons/04_matmul/kernels/matmul_tensor_layout.hpp.
  Status (*tensor_layout_probe)(float* a_out, float* b_out, float* c_out);
};

// Why the CPU emulator greys the tensor-core rungs rather than running them.
inline constexpr const char* kTensorRungsNotEmulated =
    "tensor-core instructions (WMMA, mma.sync, ldmatrix, cp.async) have no CPU emulation here: "
    "the warp-wide fragments and the hardware's accumulation order would have to be imitated, and "
    "an imitation would teach nothing about speed; run on a GPU of compute capability 8.0 or "
    "newer. "
    "The Tensor fragments tab still draws which lane holds which element";

// The tensor rungs' GPU launch (lessons/04_matmul/kernels/matmul_tensor_gpu.cu) and the emulator's
// refusal.
Status matmul_tensor_gpu(const LaunchConfig& config, MatmulKernel kernel, const void* a,
                         const void* b, float* c, int m, int n, int k, TraceRecord* trace);
Status matmul_tensor_emulated(const LaunchConfig& config, MatmulKernel kernel, const void* a,
                              const void* b, float* c, int m, int n, int k, TraceRecord* trace);
Status matmul_tensor_layout_probe_gpu(float* a_out, float* b_out, float* c_out);
Status matmul_tensor_layout_probe_emulated(float* a_out, float* b_out, float* c_out);

// The pipelined rung's autotuning (GPU only, lessons/04_matmul/kernels/matmul_gpu.cu). The GPU
// executor compiles the rung in a few shapes (values of k per stage × stages); they compute the
// same elements in the same order, so only their speed differs. The first timed launch of at least
// kPipelinedTuneMinSide in every dimension times each shape on that launch's own matrices and keeps
// the fastest for the device, for the rest of the process; smaller launches use the lesson's shape
// until then. Shape `index` of matmul_pipelined_shape_count() can also be launched directly (the
// GPU tests check every one).
inline constexpr int kPipelinedTuneMinSide = 1024;
int matmul_pipelined_shape_count();
std::string matmul_pipelined_shape_name(int index);  // "BK = 16, 2 stages"
Status matmul_pipelined_shape_gpu(int index, const LaunchConfig& config, const float* a,
                                  const float* b, float* c, int m, int n, int k);
// The shape tuning chose for the current device ("BK = 8, 3 stages (tuned: ...)"), or nothing yet.
std::string matmul_pipelined_tuned_gpu();

// The tiled kernel hard-codes its tile size: it is a template, and a block's thread (x, y) loads
// element (y, x) of each tile. Both executors refuse any other block shape before launching,
// because such a launch would not fail: it would silently compute garbage.
inline Status check_tiled_launch(int tile, const LaunchConfig& config) {
  if (tile != 8 && tile != 16 && tile != 32) {
    return invalid_argument("the tiled kernel is compiled for TILE = 8, 16 or 32, not " +
                            std::to_string(tile) +
                            " (32×32 = 1024 threads is the largest block CUDA allows).");
  }
  const auto t = static_cast<std::uint32_t>(tile);
  if (config.block != Dim3{t, t, 1}) {
    return invalid_argument("matmul_tiled<" + std::to_string(tile) + "> needs blocks of " +
                            std::to_string(tile) + "×" + std::to_string(tile) +
                            " threads, one per element of its tile, but the block is " +
                            to_string(config.block) + ".");
  }
  return Status::ok();
}

// The register-tiled rungs compute a fixed tile of C per block with a fixed number of threads, each
// loading its share of the tiles by its index: with any other block they would silently leave parts
// of C unwritten or read past their shared tiles. Both executors refuse such a launch first.
inline Status check_block_tile_launch(MatmulKernel kernel, const LaunchConfig& config) {
  const auto shape = matmul_block_tile(kernel);
  if (!shape) {
    return invalid_argument("the " + std::string(to_string(kernel)) +
                            " kernel is not a register-tiled or tensor-core kernel");
  }
  if (config.block != Dim3{shape->threads, 1, 1}) {
    return invalid_argument("the " + std::string(to_string(kernel)) +
                            " kernel needs blocks of exactly " + std::to_string(shape->threads) +
                            "×1×1 threads: each block computes a " + std::to_string(shape->tile_m) +
                            "×" + std::to_string(shape->tile_n) +
                            " tile of C and every thread has its fixed share of it; the block is " +
                            to_string(config.block) + ".");
  }
  return Status::ok();
}

}  // namespace tl::kernels
