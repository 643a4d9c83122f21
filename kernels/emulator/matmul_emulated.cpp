// Lesson 4's kernels compiled by the host compiler for the CPU emulator. The tiled kernel calls
// __syncthreads(), so it runs with Barriers::kUsed: the threads of a block become fibers that all
// reach each barrier before any passes it, as on a GPU.

#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/matmul_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::emulated {
#include "kernels/matmul.cuh"
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

}  // namespace

MatmulKernels matmul_emulated() {
  return {naive, tiled, naive_traced, tiled_traced};
}

}  // namespace tl::kernels
