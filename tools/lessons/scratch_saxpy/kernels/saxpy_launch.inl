// The scratch SAXPY lesson's kernels, described once for both executors
// (kernels/kernel_description.hpp explains the pattern). Included inside namespace tl::gpu or
// tl::emulated, after lessons/12_saxpy/kernels/saxpy.cuh.

constexpr auto kSaxpy = describe("saxpy", &saxpy<tl::Untraced>);
constexpr auto kSaxpyTraced = describe("saxpy_traced", &saxpy<tl::Traced>);

inline kernels::SaxpyKernels saxpy_kernels() {
  return {launch<kSaxpy>, launch<kSaxpyTraced>};
}

// The timed kernel, for the occupancy view (the lesson's occupancy_kernel() names it).
inline std::span<const kernels::KernelSymbol> saxpy_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kSaxpy)};
  return kSymbols;
}
