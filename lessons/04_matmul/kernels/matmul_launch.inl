// Lesson 4's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after kernels/matmul*.cuh. The
// tile size of matmul_tiled and the register-tiled rung are chosen at run time: the launch
// functions below pick the instantiation.

constexpr auto kUncoalesced = describe("matmul_uncoalesced", &matmul_uncoalesced<tl::Untraced>);
constexpr auto kUncoalescedTraced =
    describe("matmul_uncoalesced_traced", &matmul_uncoalesced<tl::Traced>);
constexpr auto kNaive = describe("matmul_naive", &matmul_naive<tl::Untraced>);
constexpr auto kNaiveTraced = describe("matmul_naive_traced", &matmul_naive<tl::Traced>);

template <int kTile>
constexpr auto kTiled = describe("matmul_tiled", &matmul_tiled<kTile, tl::Untraced>, kBarriers);
template <int kTile>
constexpr auto kTiledTraced = describe("matmul_tiled_traced", &matmul_tiled<kTile, tl::Traced>,
                                       kBarriers);

// The register-tiled rungs, timed or traced; launch errors name the rung either way.
template <class Trace>
constexpr auto kRegtile1d = describe("matmul_regtile_1d", &matmul_regtile_1d<Trace>, kBarriers);
template <class Trace>
constexpr auto kRegtile2d = describe("matmul_regtile_2d", &matmul_regtile_2d<Trace>, kBarriers);
template <class Trace>
constexpr auto kVectorized = describe("matmul_vectorized", &matmul_vectorized<Trace>, kBarriers);
template <class Trace>
constexpr auto kWarptile = describe("matmul_warptile", &matmul_warptile<MatmulWarptile, Trace>,
                                    kBarriers);
// The pipelined rung takes its stages from dynamic shared memory, sized by the shape; kWholeTiles
// (no bounds checks in the copies) is chosen per launch, see pipelined_whole_tiles.
template <class Shape, bool kWholeTiles, class Trace>
constexpr auto kPipelinedKernel = describe(std::is_same_v<Trace, tl::Untraced>
                                               ? "matmul_pipelined"
                                               : "matmul_pipelined_traced",
                                           &matmul_pipelined<Shape, kWholeTiles, Trace>, kBarriers,
                                           &matmul_pipelined_shared_bytes<Shape>);
template <class Shape, class Trace, class... Records>
Status launch_pipelined(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                        int n, int k, Records... records) {
  if (pipelined_whole_tiles<Shape>(m, n, k, b)) {
    return launch<kPipelinedKernel<Shape, true, Trace>>(config, a, b, c, m, n, k, records...);
  }
  return launch<kPipelinedKernel<Shape, false, Trace>>(config, a, b, c, m, n, k, records...);
}

// `tile` picks the instantiation; `trace` is empty for the timed kernel, the records for the drawn
// one.
template <auto& kernel8, auto& kernel16, auto& kernel32, class... Trace>
Status launch_tiled(const LaunchConfig& config, int tile, const float* a, const float* b, float* c,
                    int m, int n, int k, Trace... trace) {
  TL_RETURN_IF_ERROR(kernels::check_tiled_launch(tile, config));
  switch (tile) {
    case 8:
      return launch<kernel8>(config, a, b, c, m, n, k, trace...);
    case 16:
      return launch<kernel16>(config, a, b, c, m, n, k, trace...);
    default:
      return launch<kernel32>(config, a, b, c, m, n, k, trace...);
  }
}

template <class Trace, class... Records>
Status launch_block_tiled(const LaunchConfig& config, kernels::MatmulKernel kernel, const float* a,
                          const float* b, float* c, int m, int n, int k, Records... records) {
  TL_RETURN_IF_ERROR(kernels::check_block_tile_launch(kernel, config));
  switch (kernel) {
    case kernels::MatmulKernel::kRegtile1d:
      return launch<kRegtile1d<Trace>>(config, a, b, c, m, n, k, records...);
    case kernels::MatmulKernel::kRegtile2d:
      return launch<kRegtile2d<Trace>>(config, a, b, c, m, n, k, records...);
    case kernels::MatmulKernel::kVectorized:
      return launch<kVectorized<Trace>>(config, a, b, c, m, n, k, records...);
    case kernels::MatmulKernel::kPipelined:
      return launch_pipelined<MatmulPipelined, Trace>(config, a, b, c, m, n, k, records...);
    default:
      return launch<kWarptile<Trace>>(config, a, b, c, m, n, k, records...);
  }
}

// The table's traced entry doubles as the timed one: a null trace launches the timed kernel.
inline Status launch_block_tiled_traced(const LaunchConfig& config, kernels::MatmulKernel kernel,
                                        const float* a, const float* b, float* c, int m, int n,
                                        int k, tl::TraceRecord* trace) {
  if (trace == nullptr) return launch_block_tiled<tl::Untraced>(config, kernel, a, b, c, m, n, k);
  return launch_block_tiled<tl::Traced>(config, kernel, a, b, c, m, n, k, trace);
}

inline kernels::MatmulKernels matmul_kernels() {
  return {launch<kNaive>, launch_tiled<kTiled<8>, kTiled<16>, kTiled<32>>, launch<kNaiveTraced>,
          launch_tiled<kTiledTraced<8>, kTiledTraced<16>, kTiledTraced<32>>, launch<kUncoalesced>,
          launch<kUncoalescedTraced>, launch_block_tiled<tl::Untraced>, launch_block_tiled_traced,
          // The tensor rungs are GPU-only source: each executor's file sets its own entries.
          nullptr, nullptr};
}

inline std::span<const kernels::KernelSymbol> matmul_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {
      symbol(kNaive),
      symbol(kTiled<8>, "matmul_tiled<8>"),
      symbol(kTiled<16>, "matmul_tiled<16>"),
      symbol(kTiled<32>, "matmul_tiled<32>"),
      symbol(kUncoalesced),
      symbol(kRegtile1d<tl::Untraced>),
      symbol(kRegtile2d<tl::Untraced>),
      symbol(kVectorized<tl::Untraced>),
      // Templates over their tile shapes (MatmulWarptile, MatmulPipelined): the Compiled tab names
      // them as the compiler spells the shape.
      symbol(kWarptile<tl::Untraced>, nullptr,
             "matmul_warptile<WarptileShape<128, 128, 16, 2, 4, 8>>"),
      symbol(kPipelinedKernel<MatmulPipelined, true, tl::Untraced>, nullptr,
             "matmul_pipelined<PipelinedShape<16, 2, true>, true>"),
  };
  return kSymbols;
}

// The shapes the register-tiled kernels are compiled with must be the ones the lesson plans with.
constexpr bool matmul_shape_matches(kernels::MatmulKernel kernel, int tile_m, int tile_n,
                                    int tile_k, int threads) {
  const auto shape = kernels::matmul_block_tile(kernel);
  return shape && static_cast<int>(shape->tile_m) == tile_m &&
         static_cast<int>(shape->tile_n) == tile_n && static_cast<int>(shape->tile_k) == tile_k &&
         static_cast<int>(shape->threads) == threads;
}
static_assert(matmul_shape_matches(kernels::MatmulKernel::kRegtile1d, kRegtile1dTileM,
                                   kRegtile1dTileN, kRegtile1dTileK, kRegtile1dThreads));
static_assert(matmul_shape_matches(kernels::MatmulKernel::kRegtile2d, kRegtile2dTileM,
                                   kRegtile2dTileN, kRegtile2dTileK, kRegtile2dThreads));
static_assert(matmul_shape_matches(kernels::MatmulKernel::kVectorized, kVectorizedTileM,
                                   kVectorizedTileN, kVectorizedTileK, kVectorizedThreads));
static_assert(matmul_shape_matches(kernels::MatmulKernel::kWarptile, MatmulWarptile::BM,
                                   MatmulWarptile::BN, MatmulWarptile::BK,
                                   MatmulWarptile::THREADS));
static_assert(matmul_shape_matches(kernels::MatmulKernel::kPipelined, MatmulPipelined::BM,
                                   MatmulPipelined::BN, MatmulPipelined::BK,
                                   MatmulPipelined::THREADS));
