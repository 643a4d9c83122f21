// Lesson 10's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/10_debugging/kernels/debugging.cuh.
//
// The kernels that reach __syncthreads() are described with their barrier, so that the emulator
// runs their blocks as fibers that meet at it. The one without its barrier is described as what it
// is, barrier-free: on the emulator its threads then run one after another, which is why its race
// gives the right values there (the Kernel Lab's race check names it; racecheck on a GPU).

constexpr auto kDifference = describe("difference", &difference<tl::Untraced>, kernels::kBarriers);
constexpr auto kWrongIndex =
    describe("difference_wrong_index", &difference_wrong_index<tl::Untraced>, kernels::kBarriers);
constexpr auto kNoGuard =
    describe("difference_no_guard", &difference_no_guard<tl::Untraced>, kernels::kBarriers);
constexpr auto kNoBarrier = describe("difference_no_barrier", &difference_no_barrier<tl::Untraced>);
constexpr auto kDivergentBarrier =
    describe("difference_divergent_barrier", &difference_divergent_barrier<tl::Untraced>,
             kernels::kBarriers);
constexpr auto kAccumulates =
    describe("difference_accumulates", &difference_accumulates<tl::Untraced>, kernels::kBarriers);

constexpr auto kDifferenceTraced =
    describe("difference_traced", &difference<tl::Traced>, kernels::kBarriers);
constexpr auto kWrongIndexTraced = describe(
    "difference_wrong_index_traced", &difference_wrong_index<tl::Traced>, kernels::kBarriers);
constexpr auto kNoGuardTraced =
    describe("difference_no_guard_traced", &difference_no_guard<tl::Traced>, kernels::kBarriers);
constexpr auto kNoBarrierTraced =
    describe("difference_no_barrier_traced", &difference_no_barrier<tl::Traced>);
constexpr auto kDivergentBarrierTraced =
    describe("difference_divergent_barrier_traced", &difference_divergent_barrier<tl::Traced>,
             kernels::kBarriers);
constexpr auto kAccumulatesTraced = describe(
    "difference_accumulates_traced", &difference_accumulates<tl::Traced>, kernels::kBarriers);

inline kernels::DebuggingKernels debugging_kernels() {
  return {launch<kDifference>,
          launch<kWrongIndex>,
          launch<kNoGuard>,
          launch<kNoBarrier>,
          launch<kDivergentBarrier>,
          launch<kAccumulates>,
          launch<kDifferenceTraced>,
          launch<kWrongIndexTraced>,
          launch<kNoGuardTraced>,
          launch<kNoBarrierTraced>,
          launch<kDivergentBarrierTraced>,
          launch<kAccumulatesTraced>};
}

// The right kernel, for the occupancy view (the lesson's occupancy_kernel() names it).
inline std::span<const kernels::KernelSymbol> debugging_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kDifference)};
  return kSymbols;
}
