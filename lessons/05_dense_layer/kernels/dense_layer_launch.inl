// Lesson 5's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/05_dense_layer/kernels/dense_layer.cuh. The launch functions refuse a block too large for
// the shared-memory tiles before launching anything, and the fast product picks its kernel (GEMV or
// GEMM, whole or edge tiles) by size.

// The model validates launches against the kernel's shared-memory tiles: both must agree.
static_assert(kDenseMaxTileOut == static_cast<int>(kernels::kDenseLayerMaxBlockX));
static_assert(kDenseMaxTileRows == static_cast<int>(kernels::kDenseLayerMaxBlockY));

// The product's tiles are shared by the threads of a block and filled between __syncthreads():
// those kernels use barriers. The element-wise kernels do not.
constexpr auto kProduct = describe("dense_product", &dense_product, kBarriers);
constexpr auto kAddBias = describe("dense_add_bias", &dense_add_bias);
constexpr auto kSigmoid = describe("dense_sigmoid", &dense_sigmoid<tl::Untraced>);
constexpr auto kSigmoidTraced = describe("dense_sigmoid_traced", &dense_sigmoid<tl::Traced>);
constexpr auto kFused = describe("dense_fused", &dense_fused<tl::Untraced>, kBarriers);
constexpr auto kFusedTraced = describe("dense_fused_traced", &dense_fused<tl::Traced>, kBarriers);
constexpr auto kBiasSigmoid = describe("dense_bias_sigmoid", &dense_bias_sigmoid<tl::Untraced>);
constexpr auto kBiasSigmoidTraced =
    describe("dense_bias_sigmoid_traced", &dense_bias_sigmoid<tl::Traced>);

// The fast product. The GEMM's pipeline takes its tiles from dynamic shared memory; its 33 KiB stay
// within the 48 KiB every kernel may have without opting in (DenseGemmShape asserts it), so a
// launch needs no cudaFuncSetAttribute first. kWholeTiles: see dense_gemm_whole_tiles.
constexpr auto kGemvProduct = describe("dense_gemv_product", &dense_gemv_product, kBarriers);
template <bool kWholeTiles>
constexpr auto kGemmProduct = describe("dense_gemm_product", &dense_gemm_product<kWholeTiles>,
                                       kBarriers, &dense_gemm_shared_bytes);
template <class Trace>
constexpr auto kGemvFused = describe(std::is_same_v<Trace, tl::Untraced>
                                         ? "dense_gemv_fused"
                                         : "dense_gemv_fused_traced",
                                     &dense_gemv_fused<Trace>, kBarriers);
template <bool kWholeTiles, class Trace>
constexpr auto kGemmFused =
    describe(std::is_same_v<Trace, tl::Untraced> ? "dense_gemm_fused" : "dense_gemm_fused_traced",
             &dense_gemm_fused<kWholeTiles, Trace>, kBarriers, &dense_gemm_shared_bytes);

// Every launch of the tiled kernels first checks the block against the tiles.
template <const auto& kernel, class... Args>
Status launch_checked(const LaunchConfig& config, Args... args) {
  TL_RETURN_IF_ERROR(kernels::validate_dense_layer_launch(config));
  return launch<kernel>(config, args...);
}

inline bool use_gemv(int batch) {
  return static_cast<std::uint64_t>(batch) < kernels::kDenseGemvMaxBatch;
}

inline Status launch_product_fast(const LaunchConfig& config, const float* x, const float* w,
                                  float* z, int batch, int in, int out) {
  TL_RETURN_IF_ERROR(kernels::check_dense_fast_launch(config, batch, out));
  if (use_gemv(batch)) return launch<kGemvProduct>(config, x, w, z, in, out);
  if (dense_gemm_whole_tiles(batch, in, out)) {
    return launch<kGemmProduct<true>>(config, x, w, z, batch, in, out);
  }
  return launch<kGemmProduct<false>>(config, x, w, z, batch, in, out);
}

template <class Trace, class... Records>
Status launch_fused_fast(const LaunchConfig& config, const float* x, const float* w, const float* b,
                         float* y, int batch, int in, int out, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_dense_fast_launch(config, batch, out));
  if (use_gemv(batch)) return launch<kGemvFused<Trace>>(config, x, w, b, y, in, out, records...);
  if (dense_gemm_whole_tiles(batch, in, out)) {
    return launch<kGemmFused<true, Trace>>(config, x, w, b, y, batch, in, out, records...);
  }
  return launch<kGemmFused<false, Trace>>(config, x, w, b, y, batch, in, out, records...);
}

inline kernels::DenseLayerKernels dense_layer_kernels() {
  return {launch_checked<kProduct>,     launch_checked<kAddBias>,
          launch_checked<kSigmoid>,     launch_checked<kFused>,
          launch_checked<kBiasSigmoid>, launch_checked<kSigmoidTraced>,
          launch_checked<kFusedTraced>, launch_checked<kBiasSigmoidTraced>,
          launch_product_fast,          launch_fused_fast<tl::Untraced>,
          launch_fused_fast<tl::Traced>};
}

inline std::span<const kernels::KernelSymbol> dense_layer_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kProduct), symbol(kAddBias), symbol(kSigmoid), symbol(kFused), symbol(kBiasSigmoid),
      symbol(kGemvFused<tl::Untraced>),
      // The variant for whole tiles (sizes that are multiples of 128, such as the lesson's 4096);
      // the edge variant has the same shape and shared memory.
      symbol(kGemmFused<true, tl::Untraced>, nullptr, "dense_gemm_fused<true>")};
  return kSymbols;
}
