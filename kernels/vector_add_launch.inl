// Lesson 1's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after kernels/vector_add.cuh.

constexpr auto kVectorAdd = describe("vector_add", &vector_add<tl::Untraced>);
constexpr auto kVectorAddTraced = describe("vector_add_traced", &vector_add<tl::Traced>);

inline kernels::VectorAddKernels vector_add_kernels() {
  return {launch<kVectorAdd>, launch<kVectorAddTraced>};
}

inline std::span<const kernels::KernelSymbol> vector_add_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kVectorAdd)};
  return kSymbols;
}
