// The capstone's kernels, described once for both executors (kernels/kernel_description.hpp
// explains the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/09_training/kernels/mlp.cuh.

static_assert(kernels::kMlpTile == 64 && kernels::kMlpTileK == 16 && kernels::kMlpBlockSide == 16,
              "lessons/09_training/kernels/mlp.cuh's tiles and "
              "lessons/09_training/kernels/mlp_shapes.hpp's launch must agree");

// The product's slices and the loss sum's tree are shared by a block between __syncthreads().
constexpr auto kMlpGemm = describe("mlp_gemm", &mlp_gemm<tl::Untraced>, kBarriers);
constexpr auto kMlpGemmTraced = describe("mlp_gemm_traced", &mlp_gemm<tl::Traced>, kBarriers);
constexpr auto kMlpSoftmaxCrossEntropy =
    describe("mlp_softmax_cross_entropy", &mlp_softmax_cross_entropy);
constexpr auto kMlpSoftmax = describe("mlp_softmax", &mlp_softmax);
constexpr auto kMlpSumLosses = describe("mlp_sum_losses", &mlp_sum_losses, kBarriers);
constexpr auto kMlpSgdMomentum = describe("mlp_sgd_momentum", &mlp_sgd_momentum);
constexpr auto kMlpAdam = describe("mlp_adam", &mlp_adam);
// Shuffles: the emulator runs these blocks' warps as fibers, as it does a barrier's.
constexpr auto kMlpSumAllSplits = describe("mlp_sum_all_splits", &mlp_sum_all_splits, kBarriers);
constexpr auto kMlpThinForward = describe("mlp_thin_forward", &mlp_thin_forward, kBarriers);
constexpr auto kMlpThinBackward = describe("mlp_thin_backward", &mlp_thin_backward, kBarriers);
constexpr auto kMlpNarrowInputGradient =
    describe("mlp_narrow_input_gradient", &mlp_narrow_input_gradient, kBarriers);

// Every product first checks its launch against its tile.
template <const auto& kernel, class... Records>
Status launch_mlp_gemm(const LaunchConfig& config, kernels::MlpGemm g, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_mlp_gemm_launch(config, g));
  return launch<kernel>(config, g, records...);
}

inline Status launch_mlp_sum_all_splits(const LaunchConfig& config, kernels::MlpSplitSums sums) {
  TL_RETURN_IF_ERROR(kernels::check_mlp_sum_all_splits_launch(config, sums));
  return launch<kMlpSumAllSplits>(config, sums);
}

inline Status launch_mlp_thin_forward(const LaunchConfig& config, const float* a, const float* w,
                                      float* z, int rows, int in, int out, int relu,
                                      const int* labels, float* dlogits, float* row_loss,
                                      float* row_correct, float grad_scale) {
  TL_RETURN_IF_ERROR(kernels::check_mlp_thin_launch(
      config, kernels::mlp_thin_forward_config(rows), rows, in, out));
  if (labels != nullptr && (relu != 0 || dlogits == nullptr || row_loss == nullptr ||
                            row_correct == nullptr)) {
    return invalid_argument(
        "the thin forward's loss is the output layer's (no ReLU) and needs somewhere to write the "
        "loss's gradient, the row losses and the correct counts.");
  }
  return launch<kMlpThinForward>(config, a, w, z, rows, in, out, relu, labels, dlogits, row_loss,
                                 row_correct, grad_scale);
}

inline Status launch_mlp_thin_backward(const LaunchConfig& config, const float* dz,
                                       const float* input, const float* w, float* partials,
                                       float* dprev, int rows, int in, int out) {
  TL_RETURN_IF_ERROR(kernels::check_mlp_thin_launch(
      config, kernels::mlp_thin_backward_config(rows), rows, in, out));
  return launch<kMlpThinBackward>(config, dz, input, w, partials, dprev, rows, in, out);
}

inline Status launch_mlp_narrow_input_gradient(const LaunchConfig& config, const float* dz,
                                               const float* input, float* partials, int rows,
                                               int in, int out) {
  // The same checks with the roles of inputs and neurons swapped: few inputs, any neurons.
  TL_RETURN_IF_ERROR(kernels::check_mlp_thin_launch(
      config, kernels::mlp_thin_backward_config(rows), rows, out, in));
  return launch<kMlpNarrowInputGradient>(config, dz, input, partials, rows, in, out);
}

inline kernels::MlpKernels mlp_kernels() {
  kernels::MlpKernels k{};
  k.gemm = launch_mlp_gemm<kMlpGemm>;
  k.gemm_traced = launch_mlp_gemm<kMlpGemmTraced>;
  k.sum_all_splits = launch_mlp_sum_all_splits;
  k.thin_forward = launch_mlp_thin_forward;
  k.thin_backward = launch_mlp_thin_backward;
  k.narrow_input_gradient = launch_mlp_narrow_input_gradient;
  k.softmax_cross_entropy = launch<kMlpSoftmaxCrossEntropy>;
  k.softmax = launch<kMlpSoftmax>;
  k.sum_losses = launch<kMlpSumLosses>;
  k.sgd_momentum = launch<kMlpSgdMomentum>;
  k.adam = launch<kMlpAdam>;
  return k;
}

inline std::span<const kernels::KernelSymbol> mlp_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kMlpGemm),         symbol(kMlpSoftmaxCrossEntropy), symbol(kMlpSumLosses),
      symbol(kMlpSgdMomentum),  symbol(kMlpAdam),                symbol(kMlpSumAllSplits),
      symbol(kMlpThinForward),  symbol(kMlpThinBackward),         symbol(kMlpNarrowInputGradient)};
  return kSymbols;
}
