// The precision lesson's kernels, described once for both executors (kernels/
// kernel_description.hpp explains the pattern). Included inside namespace tl::gpu or tl::emulated,
// after lessons/08_precision/kernels/precision.cuh, where __half and __nv_bfloat16 are the
// executor's own types.

constexpr auto kRoundToHalf = describe("round_floats<__half>", &round_floats<__half>);
constexpr auto kRoundToBfloat16 =
    describe("round_floats<__nv_bfloat16>", &round_floats<__nv_bfloat16>);
constexpr auto kRoundToTf32 = describe("round_floats_to_tf32", &round_floats_to_tf32);

template <class T>
constexpr auto kMultiplyAddEach = describe("multiply_add_each", &multiply_add_each<T>);
template <class T>
constexpr auto kAddEach = describe("add_each", &add_each<T>);
template <class In, class Acc>
constexpr auto kDotPartials = describe("dot_partials", &dot_partials<In, Acc>, kBarriers);
template <class Acc>
constexpr auto kDotFinish = describe("dot_finish", &dot_finish<Acc>);
template <class In, class Acc, class Trace>
constexpr auto kMatmulIn = describe("matmul_in", &matmul_in<In, Acc, Trace>, kBarriers);

namespace precision_launch {

using kernels::Accumulate;
using kernels::FloatFormat;

// Calls `run` with the format's storage type (a null pointer of it) and whether it accumulates in
// FP32: the one place a format becomes a type.
template <class Run>
Status with_types(FloatFormat format, Accumulate accumulate, Run run) {
  TL_RETURN_IF_ERROR(kernels::check_accumulator(format, accumulate));
  const bool fp32 = accumulate == Accumulate::kFp32;
  switch (format) {
    case FloatFormat::kFp32:
    case FloatFormat::kTf32:
      return run(static_cast<float*>(nullptr), static_cast<float*>(nullptr));
    case FloatFormat::kFp16:
      return fp32 ? run(static_cast<__half*>(nullptr), static_cast<float*>(nullptr))
                  : run(static_cast<__half*>(nullptr), static_cast<__half*>(nullptr));
    case FloatFormat::kBf16:
      return fp32 ? run(static_cast<__nv_bfloat16*>(nullptr), static_cast<float*>(nullptr))
                  : run(static_cast<__nv_bfloat16*>(nullptr), static_cast<__nv_bfloat16*>(nullptr));
  }
  return invalid_argument("unknown number format");
}

inline Status round_floats_to(FloatFormat format, const LaunchConfig& config, const float* in,
                              void* out, int n) {
  switch (format) {
    case FloatFormat::kFp32:
      return invalid_argument("FP32 data needs no rounding: it is already float");
    case FloatFormat::kTf32:
      return launch<kRoundToTf32>(config, in, static_cast<float*>(out), n);
    case FloatFormat::kFp16:
      return launch<kRoundToHalf>(config, in, static_cast<__half*>(out), n);
    case FloatFormat::kBf16:
      return launch<kRoundToBfloat16>(config, in, static_cast<__nv_bfloat16*>(out), n);
  }
  return invalid_argument("unknown number format");
}

inline Status multiply_add_each_in(FloatFormat format, const LaunchConfig& config, const void* a,
                                   const void* b, const void* c, void* out, int n) {
  return with_types(format, Accumulate::kFp32, [&]<class In, class Acc>(In*, Acc*) {
    return launch<kMultiplyAddEach<In>>(config, static_cast<const In*>(a),
                                        static_cast<const In*>(b), static_cast<const In*>(c),
                                        static_cast<In*>(out), n);
  });
}

inline Status add_each_in(FloatFormat format, const LaunchConfig& config, const void* a,
                          const void* b, void* out, int n) {
  return with_types(format, Accumulate::kFp32, [&]<class In, class Acc>(In*, Acc*) {
    return launch<kAddEach<In>>(config, static_cast<const In*>(a), static_cast<const In*>(b),
                                static_cast<In*>(out), n);
  });
}

inline Status dot_partials_in(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                              const void* a, const void* b, int n, void* partials) {
  TL_RETURN_IF_ERROR(kernels::check_dot_block(config));
  return with_types(format, accumulate, [&]<class In, class Acc>(In*, Acc*) {
    return launch<kDotPartials<In, Acc>>(config, static_cast<const In*>(a),
                                         static_cast<const In*>(b), n, static_cast<Acc*>(partials));
  });
}

inline Status dot_finish_in(FloatFormat format, Accumulate accumulate, const void* partials,
                            int count, float* out) {
  const LaunchConfig one_thread{Dim3{1, 1, 1}, Dim3{1, 1, 1}};
  return with_types(format, accumulate, [&]<class In, class Acc>(In*, Acc*) {
    return launch<kDotFinish<Acc>>(one_thread, static_cast<const Acc*>(partials), count, out);
  });
}

template <class Trace, class... Records>
Status matmul_with(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                   const void* a, const void* b, float* c, int m, int n, int k,
                   Records... records) {
  const std::uint32_t tile = kernels::kPrecisionMatmulTile;
  if (config.block.x != tile || config.block.y != tile || config.block.z != 1) {
    return invalid_argument("the precision matrix product runs in 16 × 16 blocks (its tile), not " +
                            to_string(config.block) + ".");
  }
  return with_types(format, accumulate, [&]<class In, class Acc>(In*, Acc*) {
    return launch<kMatmulIn<In, Acc, Trace>>(config, static_cast<const In*>(a),
                                             static_cast<const In*>(b), c, m, n, k, records...);
  });
}

inline Status matmul_timed(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                           const void* a, const void* b, float* c, int m, int n, int k) {
  return matmul_with<tl::Untraced>(format, accumulate, config, a, b, c, m, n, k);
}
inline Status matmul_traced(FloatFormat format, Accumulate accumulate, const LaunchConfig& config,
                            const void* a, const void* b, float* c, int m, int n, int k,
                            TraceRecord* records) {
  return matmul_with<tl::Traced>(format, accumulate, config, a, b, c, m, n, k, records);
}

}  // namespace precision_launch

inline kernels::PrecisionKernels precision_kernels() {
  return {precision_launch::round_floats_to, precision_launch::multiply_add_each_in,
          precision_launch::add_each_in,     precision_launch::dot_partials_in,
          precision_launch::dot_finish_in,   precision_launch::matmul_timed,
          precision_launch::matmul_traced};
}

inline std::span<const kernels::KernelSymbol> precision_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kMatmulIn<float, float, tl::Untraced>, "matmul_in<float, float>"),
      symbol(kMatmulIn<__half, __half, tl::Untraced>, "matmul_in<__half, __half>"),
      symbol(kMatmulIn<__half, float, tl::Untraced>, "matmul_in<__half, float>"),
      symbol(kMatmulIn<__nv_bfloat16, __nv_bfloat16, tl::Untraced>,
             "matmul_in<__nv_bfloat16, __nv_bfloat16>"),
      symbol(kMatmulIn<__nv_bfloat16, float, tl::Untraced>, "matmul_in<__nv_bfloat16, float>"),
      symbol(kDotPartials<float, float>, "dot_partials<float, float>"),
      symbol(kDotPartials<__half, __half>, "dot_partials<__half, __half>"),
      symbol(kDotPartials<__half, float>, "dot_partials<__half, float>"),
      symbol(kDotPartials<__nv_bfloat16, __nv_bfloat16>,
             "dot_partials<__nv_bfloat16, __nv_bfloat16>"),
      symbol(kDotPartials<__nv_bfloat16, float>, "dot_partials<__nv_bfloat16, float>")};
  return kSymbols;
}
