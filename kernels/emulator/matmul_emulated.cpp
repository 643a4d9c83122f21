// Lesson 4's kernels compiled by the host compiler for the CPU emulator. The tiled kernel calls
// __syncthreads(), so it runs with Barriers::kUsed: the threads of a block become fibers that all
// reach each barrier before any passes it, as on a GPU.

#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/matmul_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::emulated {
#include "kernels/matmul.cuh"
#include "kernels/matmul_regtile_1d.cuh"
#include "kernels/matmul_regtile_2d.cuh"
#include "kernels/matmul_tile_io.cuh"
#include "kernels/matmul_vectorized.cuh"
#include "kernels/matmul_warptile.cuh"
}  // namespace tl::emulated

namespace tl::kernels {
namespace {

constexpr emu::GridOptions kWithBarriers{.barriers = emu::Barriers::kUsed};

Status naive(const LaunchConfig& config, const float* a, const float* b, float* c, int m, int n,
             int k) {
  return emu::emulate("matmul_naive", config, {},
                      [=] { emulated::matmul_naive(a, b, c, m, n, k); });
}

Status naive_traced(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                    int n, int k, TraceRecord* trace) {
  return emu::emulate("matmul_naive_traced", config, {},
                      [=] { emulated::matmul_naive_traced(a, b, c, m, n, k, trace); });
}

template <int kTile>
Status tiled_with(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                  int n, int k) {
  return emu::emulate("matmul_tiled", config, kWithBarriers,
                      [=] { emulated::matmul_tiled<kTile>(a, b, c, m, n, k); });
}

template <int kTile>
Status tiled_traced_with(const LaunchConfig& config, const float* a, const float* b, float* c,
                         int m, int n, int k, TraceRecord* trace) {
  return emu::emulate("matmul_tiled_traced", config, kWithBarriers,
                      [=] { emulated::matmul_tiled_traced<kTile>(a, b, c, m, n, k, trace); });
}

Status tiled(const LaunchConfig& config, int tile, const float* a, const float* b, float* c, int m,
             int n, int k) {
  TL_RETURN_IF_ERROR(check_tiled_launch(tile, config));
  switch (tile) {
    case 8:
      return tiled_with<8>(config, a, b, c, m, n, k);
    case 16:
      return tiled_with<16>(config, a, b, c, m, n, k);
    default:
      return tiled_with<32>(config, a, b, c, m, n, k);
  }
}

Status tiled_traced(const LaunchConfig& config, int tile, const float* a, const float* b, float* c,
                    int m, int n, int k, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_tiled_launch(tile, config));
  switch (tile) {
    case 8:
      return tiled_traced_with<8>(config, a, b, c, m, n, k, trace);
    case 16:
      return tiled_traced_with<16>(config, a, b, c, m, n, k, trace);
    default:
      return tiled_traced_with<32>(config, a, b, c, m, n, k, trace);
  }
}

Status uncoalesced(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                   int n, int k) {
  return emu::emulate("matmul_uncoalesced", config, {},
                      [=] { emulated::matmul_uncoalesced(a, b, c, m, n, k); });
}

Status uncoalesced_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                          int m, int n, int k, TraceRecord* trace) {
  return emu::emulate("matmul_uncoalesced_traced", config, {},
                      [=] { emulated::matmul_uncoalesced_traced(a, b, c, m, n, k, trace); });
}

// The shapes the register-tiled kernels are compiled with must be the ones the lesson plans with.
constexpr bool matches(lessons::MatmulKernel kernel, int tile_m, int tile_n, int tile_k,
                       int threads) {
  const auto shape = lessons::matmul_block_tile(kernel);
  return shape && static_cast<int>(shape->tile_m) == tile_m &&
         static_cast<int>(shape->tile_n) == tile_n && static_cast<int>(shape->tile_k) == tile_k &&
         static_cast<int>(shape->threads) == threads;
}

// Runs `run` (which launches one register-tiled kernel with or without a trace) as fibers.
Status block_tiled_with_trace(const LaunchConfig& config, lessons::MatmulKernel kernel,
                              const float* a, const float* b, float* c, int m, int n, int k,
                              TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_block_tile_launch(kernel, config));
  using emulated::StoreToC;
  using emulated::StoreToCTraced;
  const std::string name = "matmul_" + std::string(lessons::to_string(kernel));
  auto launch = [&](auto body) { return emu::emulate(name.c_str(), config, kWithBarriers, body); };
  switch (kernel) {
    case lessons::MatmulKernel::kRegtile1d:
      if (trace) {
        return launch([=] { emulated::matmul_regtile_1d_traced(a, b, c, m, n, k, trace); });
      }
      return launch([=] { emulated::matmul_regtile_1d(a, b, c, m, n, k); });
    case lessons::MatmulKernel::kRegtile2d:
      if (trace) {
        return launch([=] { emulated::matmul_regtile_2d_traced(a, b, c, m, n, k, trace); });
      }
      return launch([=] { emulated::matmul_regtile_2d(a, b, c, m, n, k); });
    case lessons::MatmulKernel::kVectorized:
      if (trace) {
        return launch([=] { emulated::matmul_vectorized_traced(a, b, c, m, n, k, trace); });
      }
      return launch([=] { emulated::matmul_vectorized(a, b, c, m, n, k); });
    default:
      if (trace) {
        return launch([=] {
          emulated::matmul_warptile_traced<emulated::MatmulWarptile>(a, b, c, m, n, k, trace);
        });
      }
      return launch([=] { emulated::matmul_warptile<emulated::MatmulWarptile>(a, b, c, m, n, k); });
  }
}

Status block_tiled(const LaunchConfig& config, lessons::MatmulKernel kernel, const float* a,
                   const float* b, float* c, int m, int n, int k) {
  return block_tiled_with_trace(config, kernel, a, b, c, m, n, k, nullptr);
}

static_assert(matches(lessons::MatmulKernel::kRegtile1d, emulated::kRegtile1dTileM,
                      emulated::kRegtile1dTileN, emulated::kRegtile1dTileK,
                      emulated::kRegtile1dThreads));
static_assert(matches(lessons::MatmulKernel::kRegtile2d, emulated::kRegtile2dTileM,
                      emulated::kRegtile2dTileN, emulated::kRegtile2dTileK,
                      emulated::kRegtile2dThreads));
static_assert(matches(lessons::MatmulKernel::kVectorized, emulated::kVectorizedTileM,
                      emulated::kVectorizedTileN, emulated::kVectorizedTileK,
                      emulated::kVectorizedThreads));
static_assert(matches(lessons::MatmulKernel::kWarptile, emulated::MatmulWarptile::BM,
                      emulated::MatmulWarptile::BN, emulated::MatmulWarptile::BK,
                      emulated::MatmulWarptile::THREADS));

}  // namespace

MatmulKernels matmul_emulated() {
  return {naive,        tiled,
          naive_traced, tiled_traced,
          uncoalesced,  uncoalesced_traced,
          block_tiled,  block_tiled_with_trace};
}

}  // namespace tl::kernels
