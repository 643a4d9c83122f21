// Lesson 1's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/01_vector_add/kernels/vector_add.cuh.

constexpr auto kVectorAdd = describe("vector_add", &vector_add<tl::Untraced>);
constexpr auto kVectorAddTraced = describe("vector_add_traced", &vector_add<tl::Traced>);
// One float4 per thread and pass, no cache hints: the fastest of the variants
// tools/gpu/perf_sweep.cu measured on an H200 (docs/PERFORMANCE.md, "Vector add").
constexpr auto kVectorAddVectorized =
    describe("vector_add_vectorized", &vector_add_vectorized<1, false, tl::Untraced>);

inline kernels::VectorAddKernels vector_add_kernels() {
  return {launch<kVectorAdd>, launch<kVectorAddTraced>, launch<kVectorAddVectorized>};
}

inline std::span<const kernels::KernelSymbol> vector_add_symbols() {
  // The Compiled tab lists the vectorized kernel with its template arguments.
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kVectorAdd), symbol(kVectorAddVectorized, nullptr, "vector_add_vectorized<1, false>")};
  return kSymbols;
}
