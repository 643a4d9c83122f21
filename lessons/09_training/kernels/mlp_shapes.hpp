#pragma once
// What the capstone's training kernels (lessons/09_training/kernels/mlp.cuh) are compiled for: the
// one product they use everywhere, described by plain numbers and pointers, and the launches they
// take. No CUDA here: the trainer (lessons/09_training) builds these on the host.

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/launch_config.hpp"
#include "core/result.hpp"

namespace tl::kernels {

// The product's tiles: a block of 16 × 16 threads computes a 64 × 64 tile of C, each thread a 4 × 4
// patch of it, walking the shared dimension 16 at a time.
inline constexpr std::uint32_t kMlpTile = 64;
inline constexpr std::uint32_t kMlpTileK = 16;
inline constexpr std::uint32_t kMlpBlockSide = 16;
inline constexpr std::uint32_t kMlpElementwiseThreads = 256;

// What the product does with each finished sum before storing it.
enum MlpEpilogue : int {
  kMlpStore = 0,     // C = A·B                       (the weight gradients)
  kMlpBiasRelu = 1,  // C = max(A·B + bias, 0)         (a hidden layer's forward pass)
  kMlpBias = 2,      // C = A·B + bias                 (the output layer's logits)
  kMlpReluMask = 3,  // C = A·B where mask > 0, else 0 (the gradient through a ReLU)
};

// C (M × N) = A (M × K) · B (K × N) with any layout: element (m, k) of A is
// a[m * a_row + k * a_col], so a transposed operand is the same memory read with the strides
// swapped, and no transposed copy is ever made. Column `b_ones_col` of B (or none: -1) is not read
// from memory: it is all ones, the constant input whose weight is a neuron's bias, so one product
// yields a layer's weight gradients and its bias gradients (the sums over the batch) together.
struct MlpGemm {
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int a_row = 0, a_col = 0;
  const float* b = nullptr;
  int b_row = 0, b_col = 0;
  int b_ones_col = -1;
  float* c = nullptr;
  int ldc = 0;
  int epilogue = kMlpStore;
  const float* bias = nullptr;  // bias of column n: bias[n * bias_stride]
  int bias_stride = 1;
  const float* mask = nullptr;  // mask[m * ldc + n], the ReLU's output
  // Split-K: when the result has too few tiles to fill the GPU (a weight gradient, summed over a
  // batch of thousands, is only a few tiles), grid z splits the shared dimension into slices of
  // k_split, and slice z stores its partial result at c + z * split_stride (mlp_sum_all_splits adds
  // them afterwards in a fixed order, so the sum is the same on every run). 0: one slice.
  int k_split = 0;
  int split_stride = 0;
  [[nodiscard]] int splits() const { return k_split > 0 ? (k + k_split - 1) / k_split : 1; }
};

inline std::uint32_t mlp_ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}

// The product's launch: one block per 64 × 64 tile of C, x along its columns, z along the slices
// of a split product.
[[nodiscard]] inline LaunchConfig mlp_gemm_config(int m, int n, int splits = 1) {
  return {{mlp_ceil_div(static_cast<std::uint64_t>(n), kMlpTile),
           mlp_ceil_div(static_cast<std::uint64_t>(m), kMlpTile),
           static_cast<std::uint32_t>(splits < 1 ? 1 : splits)},
          {kMlpBlockSide, kMlpBlockSide, 1}};
}

// How many slices to split a product's shared dimension into so that about `target_blocks`
// blocks run (the GPU: a couple per SM), each slice at least 64 deep; 1 where the tiles alone
// suffice or on the emulator (target 0). Returns k_split (0: no split).
[[nodiscard]] inline int mlp_choose_k_split(int m, int n, int k, std::uint64_t target_blocks) {
  const std::uint64_t tiles =
      static_cast<std::uint64_t>(mlp_ceil_div(static_cast<std::uint64_t>(m), kMlpTile)) *
      mlp_ceil_div(static_cast<std::uint64_t>(n), kMlpTile);
  if (target_blocks == 0 || tiles >= target_blocks / 2 || k < 128) return 0;
  std::uint64_t splits = (target_blocks + tiles - 1) / tiles;
  splits = std::min<std::uint64_t>(splits, static_cast<std::uint64_t>(k) / 64);
  if (splits < 2) return 0;
  // Slices a multiple of the tile's depth, so only the last one is ragged.
  const std::uint64_t slice =
      mlp_ceil_div(mlp_ceil_div(static_cast<std::uint64_t>(k), splits), kMlpTileK) * kMlpTileK;
  return static_cast<int>(slice);
}

// The element-wise kernels (one thread per row, or per parameter): 1D blocks of 256.
[[nodiscard]] inline LaunchConfig mlp_elementwise_config(std::uint64_t count) {
  return {{mlp_ceil_div(count == 0 ? 1 : count, kMlpElementwiseThreads), 1, 1},
          {kMlpElementwiseThreads, 1, 1}};
}

// The loss sum: one block whose threads meet in a fixed tree, so the sum's rounding is the same
// on every run and on both executors.
[[nodiscard]] inline LaunchConfig mlp_sum_config() {
  return {{1, 1, 1}, {kMlpElementwiseThreads, 1, 1}};
}

// The thin layers (mlp_thin_forward, mlp_thin_backward): a layer of at most kMlpThinMax neurons
// takes them instead of mlp_gemm, whose 64 × 64 tiles would be almost all padding. Forward: a warp
// per example row, 8 rows a block. Backward: a block per kMlpThinRows rows, whose weight gradient
// is one slice for mlp_sum_all_splits.
inline constexpr int kMlpThinMax = 8;
inline constexpr int kMlpThinRows = 32;
inline constexpr std::uint32_t kMlpThinThreads = 256;

[[nodiscard]] inline bool mlp_is_thin(int neurons) {
  return neurons >= 1 && neurons <= kMlpThinMax;
}
[[nodiscard]] inline LaunchConfig mlp_thin_forward_config(int rows) {
  return {
      {mlp_ceil_div(static_cast<std::uint64_t>(rows < 1 ? 1 : rows), kMlpThinThreads / 32), 1, 1},
      {kMlpThinThreads, 1, 1}};
}
[[nodiscard]] inline int mlp_thin_backward_slices(int rows) {
  return static_cast<int>(mlp_ceil_div(static_cast<std::uint64_t>(rows < 1 ? 1 : rows),
                                       static_cast<std::uint64_t>(kMlpThinRows)));
}
[[nodiscard]] inline LaunchConfig mlp_thin_backward_config(int rows) {
  return {{static_cast<std::uint32_t>(mlp_thin_backward_slices(rows)), 1, 1},
          {kMlpThinThreads, 1, 1}};
}

// mlp_sum_all_splits: up to kMlpMaxLayers sums, one per layer whose product was split. Layer y's
// `splits` slices of `count` floats lie one after another from `partials`; their sum goes to `out`.
inline constexpr int kMlpMaxLayers = 8;
struct MlpSplitSum {
  const float* partials = nullptr;
  float* out = nullptr;
  int count = 0;
  int splits = 0;
  int lanes = 1;  // threads per element, a power of two up to 32 (mlp_split_sum_lanes)
};
struct MlpSplitSums {
  MlpSplitSum layer[kMlpMaxLayers];
  int layers = 0;
};

// One thread per element up to 8 slices (the plain sum in order); past that, enough lanes that
// each adds about 4 slices, so the latency of one long chain of loads is not the kernel's.
[[nodiscard]] inline int mlp_split_sum_lanes(int splits) {
  int lanes = 1;
  while (lanes < 32 && lanes * 4 < splits && splits > 8) lanes *= 2;
  return lanes;
}
[[nodiscard]] inline LaunchConfig mlp_sum_all_splits_config(const MlpSplitSums& sums) {
  std::uint64_t widest = 1;
  for (int l = 0; l < sums.layers; ++l) {
    widest = std::max<std::uint64_t>(widest, static_cast<std::uint64_t>(sums.layer[l].count) *
                                                 static_cast<std::uint64_t>(sums.layer[l].lanes));
  }
  return {{mlp_ceil_div(widest, kMlpElementwiseThreads),
           static_cast<std::uint32_t>(sums.layers < 1 ? 1 : sums.layers), 1},
          {kMlpElementwiseThreads, 1, 1}};
}

// The thin kernels read their layout from fixed blocks (a warp per row; kMlpThinRows rows of dZ
// staged by a block of kMlpThinThreads), and the sums' groups must lie inside one warp.
inline Status check_mlp_thin_launch(const LaunchConfig& config, const LaunchConfig& expected,
                                    int rows, int in, int out) {
  if (config.grid != expected.grid || config.block != expected.block) {
    return invalid_argument("a thin training layer needs " + expected.to_string() + " for " +
                            std::to_string(rows) + " rows, not " + config.to_string() + ".");
  }
  if (rows <= 0 || in <= 0 || !mlp_is_thin(out)) {
    return invalid_argument("a thin training layer needs rows and inputs > 0 and 1 to " +
                            std::to_string(kMlpThinMax) + " neurons, got " + std::to_string(rows) +
                            " rows, " + std::to_string(in) + " inputs and " + std::to_string(out) +
                            " neurons.");
  }
  return Status::ok();
}
inline Status check_mlp_sum_all_splits_launch(const LaunchConfig& config,
                                              const MlpSplitSums& sums) {
  if (sums.layers < 1 || sums.layers > kMlpMaxLayers) {
    return invalid_argument("the split sums take 1 to " + std::to_string(kMlpMaxLayers) +
                            " layers, not " + std::to_string(sums.layers) + ".");
  }
  for (int l = 0; l < sums.layers; ++l) {
    const int lanes = sums.layer[l].lanes;
    if (lanes < 1 || lanes > 32 || (lanes & (lanes - 1)) != 0 || sums.layer[l].count < 1 ||
        sums.layer[l].splits < 1) {
      return invalid_argument("split sum " + std::to_string(l) +
                              " needs a count and slices > 0 and a power of two up to 32 lanes.");
    }
  }
  const LaunchConfig expected = mlp_sum_all_splits_config(sums);
  if (config.grid != expected.grid || config.block != expected.block) {
    return invalid_argument("the split sums need " + expected.to_string() + ", not " +
                            config.to_string() + ".");
  }
  return Status::ok();
}

// The product computes its tile from fixed block dimensions: another block would leave parts of C
// unwritten.
inline Status check_mlp_gemm_launch(const LaunchConfig& config, const MlpGemm& g) {
  const LaunchConfig expected = mlp_gemm_config(g.m, g.n, g.splits());
  if (config.grid != expected.grid || config.block != expected.block) {
    return invalid_argument("the training product needs " + expected.to_string() + " for a " +
                            std::to_string(g.m) + " × " + std::to_string(g.n) + " result, not " +
                            config.to_string() + ".");
  }
  if (g.m <= 0 || g.n <= 0 || g.k <= 0) {
    return invalid_argument("the training product needs positive sizes, got " +
                            std::to_string(g.m) + " × " + std::to_string(g.n) + " × " +
                            std::to_string(g.k) + ".");
  }
  if (g.splits() > 1 && g.epilogue != kMlpStore) {
    return invalid_argument(
        "a split product stores partial sums: its epilogue must be a plain "
        "store, the rest follows once the slices are added.");
  }
  return Status::ok();
}

}  // namespace tl::kernels
