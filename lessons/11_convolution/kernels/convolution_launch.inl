// Lesson 11's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/11_convolution/kernels/convolution.cuh. The kernels take the shape as ints (so that the
// Memory tab's recorder, which passes arrays and ints, can launch them too); the table takes it as
// a kernels::ConvDims, unpacked here. The tensor-core rung is GPU-only source: each executor's file
// sets its table entry.

static_assert(
    kTile == kernels::kConvTile && kMaxFilter == kernels::kConvMaxFilter &&
        kMaxStride == kernels::kConvMaxStride && kGemmM == kernels::kIgemmTileM &&
        kGemmN == kernels::kIgemmTileN && kGemmK == kernels::kIgemmTileK &&
        kGemmThreads == kernels::kIgemmThreads,
    "lessons/11_convolution/kernels/convolution_shapes.hpp plans with the kernels' shapes");

constexpr auto kDirect = describe("conv_direct", &conv_direct<tl::Untraced>);
constexpr auto kDirectTraced = describe("conv_direct_traced", &conv_direct<tl::Traced>);
constexpr auto kTiled = describe("conv_tiled", &conv_tiled<tl::Untraced>, kBarriers);
constexpr auto kTiledTraced = describe("conv_tiled_traced", &conv_tiled<tl::Traced>, kBarriers);
constexpr auto kIm2col = describe("conv_im2col", &conv_im2col<tl::Untraced>);
constexpr auto kImplicitGemm =
    describe("conv_implicit_gemm", &conv_implicit_gemm<tl::Untraced>, kBarriers);
constexpr auto kImplicitGemmTraced =
    describe("conv_implicit_gemm_traced", &conv_implicit_gemm<tl::Traced>, kBarriers);

// Launches `kernel` on (a, b, out) with the shape's ints, then the trace records if any.
template <auto& kernel, class A, class B, class... Records>
Status launch_conv(const LaunchConfig& config, const kernels::ConvDims& d, A a, B b, float* out,
                   Records... records) {
  return launch<kernel>(config, a, b, out, d.n, d.c, d.h, d.w, d.k, d.r, d.s, d.stride, d.pad,
                        d.nhwc, records...);
}

template <auto& kernel, class... Records>
Status launch_direct(const LaunchConfig& config, kernels::ConvDims d, const float* in,
                     const float* w, float* out, Records... records) {
  return launch_conv<kernel>(config, d, in, w, out, records...);
}
template <auto& kernel, class... Records>
Status launch_tiled_conv(const LaunchConfig& config, kernels::ConvDims d, const float* in,
                         const float* w, float* out, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_tiled_conv_launch(config, d));
  return launch_conv<kernel>(config, d, in, w, out, records...);
}
inline Status launch_im2col(const LaunchConfig& config, kernels::ConvDims d, const float* in,
                            float* col) {
  return launch<kIm2col>(config, in, col, d.n, d.c, d.h, d.w, d.k, d.r, d.s, d.stride, d.pad,
                         d.nhwc);
}
template <auto& kernel, class... Records>
Status launch_implicit_gemm(const LaunchConfig& config, kernels::ConvDims d, const float* in,
                            const float* wg, float* out, Records... records) {
  TL_RETURN_IF_ERROR(
      kernels::check_fixed_block("conv_implicit_gemm", config, kernels::kIgemmThreads));
  return launch_conv<kernel>(config, d, in, wg, out, records...);
}

inline kernels::ConvolutionKernels convolution_kernels() {
  return {launch_direct<kDirect>,
          launch_direct<kDirectTraced>,
          launch_tiled_conv<kTiled>,
          launch_tiled_conv<kTiledTraced>,
          launch_im2col,
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
