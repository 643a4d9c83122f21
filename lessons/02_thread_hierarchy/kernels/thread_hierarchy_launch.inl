// Lesson 2's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh. The drawn kernels wait at a barrier
// before thread 0 writes its block's record (TracedWithBlocks); the timed ones have none.

constexpr auto kOnePerThread =
    describe("hierarchy_one_per_thread", &hierarchy_one_per_thread<tl::Untraced>);
constexpr auto kGridStride =
    describe("hierarchy_grid_stride", &hierarchy_grid_stride<tl::Untraced>);
constexpr auto kOnePerThreadTraced = describe(
    "hierarchy_one_per_thread_traced", &hierarchy_one_per_thread<TracedWithBlocks>, kBarriers);
constexpr auto kGridStrideTraced =
    describe("hierarchy_grid_stride_traced", &hierarchy_grid_stride<TracedWithBlocks>, kBarriers);

constexpr auto kBranchByThread =
    describe("hierarchy_branch_by_thread", &hierarchy_branch_by_thread<tl::Untraced>);
constexpr auto kBranchByWarp =
    describe("hierarchy_branch_by_warp", &hierarchy_branch_by_warp<tl::Untraced>);
constexpr auto kBranchByThreadTraced = describe(
    "hierarchy_branch_by_thread_traced", &hierarchy_branch_by_thread<TracedWithBlocks>, kBarriers);
constexpr auto kBranchByWarpTraced = describe(
    "hierarchy_branch_by_warp_traced", &hierarchy_branch_by_warp<TracedWithBlocks>, kBarriers);

inline kernels::ThreadHierarchyKernels thread_hierarchy_kernels() {
  return {launch<kOnePerThread>,         launch<kGridStride>,        launch<kOnePerThreadTraced>,
          launch<kGridStrideTraced>,     launch<kBranchByThread>,    launch<kBranchByWarp>,
          launch<kBranchByThreadTraced>, launch<kBranchByWarpTraced>};
}

inline std::span<const kernels::KernelSymbol> thread_hierarchy_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kOnePerThread), symbol(kGridStride),
                                                   symbol(kBranchByThread), symbol(kBranchByWarp)};
  return kSymbols;
}
