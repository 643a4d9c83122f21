// The reductions lesson's kernels, described once for both executors (kernels/
// kernel_description.hpp explains the pattern). Included inside namespace tl::gpu or tl::emulated,
// after the kernels (sum_ladder.cuh, sum_vectorized.cuh, warp_level.cuh, scan.cuh, histogram.cuh,
// softmax.cuh).

template <class Trace>
constexpr auto kSumAtomic = describe("sum_atomic", &sum_atomic<Trace>);
template <class Trace>
constexpr auto kSumInterleaved = describe("sum_interleaved", &sum_interleaved<Trace>, kBarriers);
template <class Trace>
constexpr auto kSumStrided = describe("sum_strided", &sum_strided<Trace>, kBarriers);
template <class Trace>
constexpr auto kSumSequential = describe("sum_sequential", &sum_sequential<Trace>, kBarriers);
template <class Trace>
constexpr auto kSumFirstAdd = describe("sum_first_add", &sum_first_add<Trace>, kBarriers);
template <class Trace>
constexpr auto kSumWarpShuffle = describe("sum_warp_shuffle", &sum_warp_shuffle<Trace>, kBarriers);
template <class Trace>
constexpr auto kSumCooperativeGroups = describe("sum_cooperative_groups",
                                                &sum_cooperative_groups<Trace>, kBarriers);
template <class Trace>
constexpr auto kSumVectorized = describe("sum_vectorized", &sum_vectorized<Trace>, kBarriers);
constexpr auto kCountAboveAtomic = describe("count_above_atomic", &count_above_atomic);
constexpr auto kCountAboveBallot = describe("count_above_ballot", &count_above_ballot, kBarriers);
template <class Trace>
constexpr auto kScanBlocks = describe("scan_blocks", &scan_blocks<Trace>, kBarriers);
constexpr auto kScanAddBlockOffsets = describe("scan_add_block_offsets", &scan_add_block_offsets);
constexpr auto kAddToAddresses = describe("add_to_addresses", &add_to_addresses);
constexpr auto kHistogramGlobal = describe("histogram_global", &histogram_global);
constexpr auto kHistogramShared = describe("histogram_shared", &histogram_shared, kBarriers);
constexpr auto kSoftmaxNaive = describe("softmax_naive", &softmax_naive<tl::Untraced>, kBarriers);
constexpr auto kSoftmaxStable =
    describe("softmax_stable", &softmax_stable<tl::Untraced>, kBarriers);
constexpr auto kSoftmaxStableTraced =
    describe("softmax_stable_traced", &softmax_stable<tl::Traced>, kBarriers);

// One launch of `rung`; `records` are empty (timed) or the trace pointers (traced).
template <class Trace, class... Records>
Status launch_sum(kernels::SumRung rung, const LaunchConfig& config, const float* in, int n,
                  const kernels::SumOutputs& o, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_reduction_block(config));
  using kernels::SumRung;
  switch (rung) {
    case SumRung::kAtomic:
      return launch<kSumAtomic<Trace>>(config, in, o.out, n, records...);
    case SumRung::kInterleaved:
      return launch<kSumInterleaved<Trace>>(config, in, o.out, n, records...);
    case SumRung::kStrided:
      return launch<kSumStrided<Trace>>(config, in, o.out, n, records...);
    case SumRung::kSequential:
      return launch<kSumSequential<Trace>>(config, in, o.out, n, records...);
    case SumRung::kFirstAdd:
      return launch<kSumFirstAdd<Trace>>(config, in, o.out, n, records...);
    case SumRung::kWarpShuffle:
      return launch<kSumWarpShuffle<Trace>>(config, in, o.out, n, records...);
    case SumRung::kCooperativeGroups:
      return launch<kSumCooperativeGroups<Trace>>(config, in, o.out, n, records...);
    case SumRung::kVectorized:
      if (o.block_sums == nullptr || o.blocks_done == nullptr) {
        return invalid_argument("sum_vectorized needs its block sums and finished-block count");
      }
      return launch<kSumVectorized<Trace>>(config, in, o.out, n, o.block_sums, o.blocks_done,
                                           records...);
  }
  return invalid_argument("unknown sum rung");
}

inline Status launch_sum_timed(kernels::SumRung rung, const LaunchConfig& config, const float* in,
                               int n, const kernels::SumOutputs& outputs) {
  return launch_sum<tl::ReductionUntraced>(rung, config, in, n, outputs);
}
inline Status launch_sum_traced(kernels::SumRung rung, const LaunchConfig& config, const float* in,
                                int n, const kernels::SumOutputs& outputs, TraceRecord* records,
                                int* tree) {
  return launch_sum<tl::ReductionTraced>(rung, config, in, n, outputs, records, tree);
}

template <const auto& kernel, class... Args>
Status launch_block_checked(const LaunchConfig& config, Args... args) {
  TL_RETURN_IF_ERROR(kernels::check_reduction_block(config));
  return launch<kernel>(config, args...);
}

// The whole scan: this level's block scans, then (more than one block) the scan of their totals,
// one level up in `scratch`, and the second pass that adds them. Only the first level's block scan
// is traced: it is the one that computes each element, the second pass adds an offset to it.
template <class Trace>
Status launch_scan_level(std::uint32_t block, const float* in, float* out, int n, float* scratch,
                         Trace trace) {
  const LaunchConfig one_block{{1, 1, 1}, {block, 1, 1}};
  TL_RETURN_IF_ERROR(kernels::check_reduction_block(one_block));
  if (n <= 0) return invalid_argument("the scan needs at least one element");
  const auto blocks =
      static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) + block - 1) / block);
  const LaunchConfig config{{blocks, 1, 1}, {block, 1, 1}};
  if (blocks == 1) {
    return launch<kScanBlocks<Trace>>(config, in, out, static_cast<float*>(nullptr), n, trace);
  }
  float* totals = scratch;
  TL_RETURN_IF_ERROR(launch<kScanBlocks<Trace>>(config, in, out, totals, n, trace));
  TL_RETURN_IF_ERROR(launch_scan_level(block, totals, totals, static_cast<int>(blocks),
                                       scratch + blocks, tl::ReductionUntraced{}));
  return launch<kScanAddBlockOffsets>(config, out, static_cast<const float*>(totals), n);
}
inline Status launch_scan_timed(std::uint32_t block, const float* in, float* out, int n,
                                float* scratch) {
  return launch_scan_level(block, in, out, n, scratch, tl::ReductionUntraced{});
}
inline Status launch_scan_traced(std::uint32_t block, const float* in, float* out, int n,
                                 float* scratch, TraceRecord* records) {
  return launch_scan_level(block, in, out, n, scratch, tl::ReductionTraced{records, nullptr});
}

using LibraryReduction = Status (*)(void*, std::size_t*, const float*, float*, int);
inline kernels::ReductionKernels reduction_kernels(LibraryReduction library_sum,
                                                   LibraryReduction library_scan) {
  return {launch_sum_timed,
          launch_sum_traced,
          launch<kAddToAddresses>,
          launch<kHistogramGlobal>,
          launch_block_checked<kHistogramShared>,
          launch_block_checked<kSoftmaxNaive>,
          launch_block_checked<kSoftmaxStable>,
          launch_block_checked<kSoftmaxStableTraced>,
          launch_block_checked<kCountAboveAtomic>,
          launch_block_checked<kCountAboveBallot>,
          launch_scan_timed,
          launch_scan_traced,
          library_sum,
          library_scan};
}

inline std::span<const kernels::KernelSymbol> reduction_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kSumAtomic<tl::ReductionUntraced>),
      symbol(kSumInterleaved<tl::ReductionUntraced>),
      symbol(kSumStrided<tl::ReductionUntraced>),
      symbol(kSumSequential<tl::ReductionUntraced>),
      symbol(kSumFirstAdd<tl::ReductionUntraced>),
      symbol(kSumWarpShuffle<tl::ReductionUntraced>),
      symbol(kSumCooperativeGroups<tl::ReductionUntraced>),
      symbol(kSumVectorized<tl::ReductionUntraced>),
      symbol(kHistogramGlobal),
      symbol(kHistogramShared),
      symbol(kSoftmaxNaive),
      symbol(kSoftmaxStable),
      symbol(kCountAboveAtomic),
      symbol(kCountAboveBallot),
      symbol(kScanBlocks<tl::ReductionUntraced>),
      symbol(kScanAddBlockOffsets)};
  return kSymbols;
}
