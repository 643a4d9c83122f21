// Lesson 11's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/11_convolution/kernels/convolution.cuh. The tensor-core rung is GPU-only source: each
// executor's file sets its table entry.

constexpr auto kDirect = describe("conv_direct", &conv_direct<tl::Untraced>);
constexpr auto kDirectTraced = describe("conv_direct_traced", &conv_direct<tl::Traced>);
constexpr auto kTiled = describe("conv_tiled", &conv_tiled<tl::Untraced>, kBarriers);
constexpr auto kTiledTraced = describe("conv_tiled_traced", &conv_tiled<tl::Traced>, kBarriers);
constexpr auto kIm2col = describe("conv_im2col", &conv_im2col<tl::Untraced>);
constexpr auto kImplicitGemm =
    describe("conv_implicit_gemm", &conv_implicit_gemm<tl::Untraced>, kBarriers);
constexpr auto kImplicitGemmTraced =
    describe("conv_implicit_gemm_traced", &conv_implicit_gemm<tl::Traced>, kBarriers);

template <auto& kernel, class... Records>
Status launch_tiled_conv(const LaunchConfig& config, kernels::ConvDims d, const float* in,
                         const float* w, float* out, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_tiled_conv_launch(config, d));
  return launch<kernel>(config, d, in, w, out, records...);
}
template <auto& kernel, class... Records>
Status launch_implicit_gemm(const LaunchConfig& config, kernels::ConvDims d, const float* in,
                            const float* wg, float* out, Records... records) {
  TL_RETURN_IF_ERROR(
      kernels::check_fixed_block("conv_implicit_gemm", config, kernels::kIgemmThreads));
  return launch<kernel>(config, d, in, wg, out, records...);
}

inline kernels::ConvolutionKernels convolution_kernels() {
  return {launch<kDirect>,
          launch<kDirectTraced>,
          launch_tiled_conv<kTiled>,
          launch_tiled_conv<kTiledTraced>,
          launch<kIm2col>,
          launch_implicit_gemm<kImplicitGemm>,
          launch_implicit_gemm<kImplicitGemmTraced>,
          nullptr};
}

// The timed kernels, for the occupancy view (the lesson's occupancy_kernel() names one).
inline std::span<const kernels::KernelSymbol> convolution_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kDirect), symbol(kTiled), symbol(kIm2col),
                                                   symbol(kImplicitGemm)};
  return kSymbols;
}
