// The capstone's kernels, described once for both executors (kernels/kernel_description.hpp
// explains the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/09_training/kernels/mlp.cuh.

static_assert(kernels::kMlpTile == 64 && kernels::kMlpTileK == 16 && kernels::kMlpBlockSide == 16,
              "lessons/09_training/kernels/mlp.cuh's tiles and "
              "lessons/09_training/kernels/mlp_shapes.hpp's launch must agree");

// The product's slices and the loss sum's tree are shared by a block between __syncthreads().
constexpr auto kMlpGemm = describe("mlp_gemm", &mlp_gemm<tl::Untraced>, kBarriers);
constexpr auto kMlpGemmTraced = describe("mlp_gemm_traced", &mlp_gemm<tl::Traced>, kBarriers);
constexpr auto kMlpSumSplits = describe("mlp_sum_splits", &mlp_sum_splits);
constexpr auto kMlpSoftmaxCrossEntropy =
    describe("mlp_softmax_cross_entropy", &mlp_softmax_cross_entropy);
constexpr auto kMlpSoftmax = describe("mlp_softmax", &mlp_softmax);
constexpr auto kMlpSumLosses = describe("mlp_sum_losses", &mlp_sum_losses, kBarriers);
constexpr auto kMlpSgdMomentum = describe("mlp_sgd_momentum", &mlp_sgd_momentum);
constexpr auto kMlpAdam = describe("mlp_adam", &mlp_adam);

// Every product first checks its launch against its tile.
template <const auto& kernel, class... Records>
Status launch_mlp_gemm(const LaunchConfig& config, kernels::MlpGemm g, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_mlp_gemm_launch(config, g));
  return launch<kernel>(config, g, records...);
}

inline kernels::MlpKernels mlp_kernels() {
  return {launch_mlp_gemm<kMlpGemm>, launch_mlp_gemm<kMlpGemmTraced>,
          launch<kMlpSumSplits>,     launch<kMlpSoftmaxCrossEntropy>,
          launch<kMlpSoftmax>,       launch<kMlpSumLosses>,
          launch<kMlpSgdMomentum>,   launch<kMlpAdam>};
}

inline std::span<const kernels::KernelSymbol> mlp_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kMlpGemm), symbol(kMlpSoftmaxCrossEntropy), symbol(kMlpSumLosses),
      symbol(kMlpSgdMomentum), symbol(kMlpAdam)};
  return kSymbols;
}
