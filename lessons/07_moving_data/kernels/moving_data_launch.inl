// Lesson 7's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/07_moving_data/kernels/moving_data.cuh.

constexpr auto kTransformChunk = describe("transform_chunk", &transform_chunk<tl::Untraced>);
constexpr auto kTransformChunkTraced =
    describe("transform_chunk_traced", &transform_chunk<tl::Traced>);

inline kernels::MovingDataKernels moving_data_kernels(
    Status (*on_stream)(void*, const LaunchConfig&, const float*, float*, int, int) = nullptr) {
  return {launch<kTransformChunk>, launch<kTransformChunkTraced>, on_stream};
}

inline std::span<const kernels::KernelSymbol> moving_data_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kTransformChunk)};
  return kSymbols;
}
