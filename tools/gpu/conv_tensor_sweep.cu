// Standalone tuning aid for lesson 11's tensor-core rung (issue #40: the ladder's fastest rung at
// 0.8 or more of cuDNN's fastest algorithm), not part of the app: the lesson's kernel template
// (lessons/11_convolution/kernels/convolution_tensor.cuh) at several tiles — block tile, reduction
// step, warp layout, pipeline depth — on the ResNet layer the lesson times (batch 32, 64 -> 64
// channels, 56 x 56, 3 x 3, stride 1, padding 1, NHWC, FP16 in, FP32 accumulation and out). Every
// tile's output is checked against a float64 convolution at 4,096 sampled outputs and timed with
// CUDA events in the same process; the lesson's tile is the baseline. cuDNN and PyTorch's conv2d
// are timed by the app and tools/gpu/conv2d_vs_pytorch.py in the same GPU session.
// Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -std=c++20 -arch=sm_90a -I. -Iapp tools/gpu/conv_tensor_sweep.cu -o conv_tensor_sweep
//   ./conv_tensor_sweep [batch] [once]      (once: check each kernel with one launch, no timing)
// Exit status 1 when an output is wrong.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/trace_record.hpp"
#include "kernels/trace.cuh"
#include "lessons/11_convolution/kernels/convolution_shapes.hpp"
#include "tools/gpu/sweep_timing.cuh"

namespace tl::gpu {
#include "kernels/cp_async.cuh"
#include "lessons/11_convolution/kernels/convolution.cuh"
#include "lessons/11_convolution/kernels/convolution_resident.cuh"
#include "lessons/11_convolution/kernels/convolution_tensor.cuh"
#include "tools/gpu/conv_halo_candidate.cuh"
#include "tools/gpu/conv_wgmma_candidate.cuh"
}  // namespace tl::gpu

namespace {

using tl::gpu::Conv;

struct Layer {
  int n = 32, c = 64, h = 56, w = 56, k = 64, r = 3, s = 3, stride = 1, pad = 1;
  Conv shape() const { return tl::gpu::conv_shape(n, c, h, w, k, r, s, stride, pad, 1); }
};

// The float64 output at (image, filter, p, q): NHWC input, weights as the (R·S·C) × K matrix.
double reference(const Layer& l, const std::vector<__half>& in, const std::vector<__half>& wg,
                 int image, int filter, int p, int q) {
  double sum = 0;
  for (int r = 0; r < l.r; ++r) {
    for (int s = 0; s < l.s; ++s) {
      const int y = p * l.stride - l.pad + r, x = q * l.stride - l.pad + s;
      if (y < 0 || y >= l.h || x < 0 || x >= l.w) continue;
      for (int c = 0; c < l.c; ++c) {
        const double a =
            __half2float(in[((static_cast<long long>(image) * l.h + y) * l.w + x) * l.c + c]);
        const double b =
            __half2float(wg[((r * l.s + s) * l.c + c) * static_cast<long long>(l.k) + filter]);
        sum += a * b;
      }
    }
  }
  return sum;
}

struct Result {
  std::string name;
  Times times{};
  double worst = 0;
  bool correct = false;
  double flops = 0;
};

bool g_time = true;  // "once": one checked launch each, for Nsight Compute

// Checks `out` against the float64 reference at 4,096 sampled outputs (corners and edges often)
// and that every output was written, then times `launch`.
template <class Launch>
Result check_and_time(const char* name, const Layer& l, float* out,
                      const std::vector<__half>& host_in, const std::vector<__half>& host_wg,
                      Launch launch) {
  const Conv d = l.shape();
  const long long pixels = static_cast<long long>(d.n) * d.p * d.q;
  CHECK_CUDA(cudaMemset(out, 0xff, pixels * d.k * sizeof(float)));  // NaN where nothing wrote
  launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> host(static_cast<std::size_t>(pixels) * d.k);
  CHECK_CUDA(cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  Result result;
  result.name = name;
  result.correct = true;
  result.flops = 2.0 * pixels * d.k * d.r * d.s * d.c;
  std::mt19937 random(7);
  for (int i = 0; i < 4096; ++i) {
    const int image = static_cast<int>(random() % d.n), filter = static_cast<int>(random() % d.k);
    const int p = i % 4 == 0 ? 0 : i % 4 == 1 ? d.p - 1 : static_cast<int>(random() % d.p);
    const int q = i % 3 == 0 ? d.q - 1 : static_cast<int>(random() % d.q);
    const double expected = reference(l, host_in, host_wg, image, filter, p, q);
    const double got = host[((static_cast<long long>(image) * d.p + p) * d.q + q) * d.k + filter];
    const double error = std::abs(got - expected);
    if (!(error <= 1e-3 + 1e-3 * std::abs(expected))) result.correct = false;
    if (!(error <= result.worst)) result.worst = std::isnan(error) ? INFINITY : error;
  }
  for (float v : host) {
    if (std::isnan(v)) result.correct = false;  // an output no block wrote
  }
  if (g_time) result.times = time_it(launch, 50);
  return result;
}

template <int kR = 0, int kS = 0, int kC = 0, int kStride = 0>
Result run_halo(const char* name, const Layer& l, const __half* in, const __half* wg, float* out,
                const std::vector<__half>& host_in, const std::vector<__half>& host_wg) {
  auto* kernel = tl::gpu::conv_implicit_gemm_fp16_halo<kR, kS, kC, kStride, tl::Untraced>;
  const long long shared = tl::gpu::conv_halo_shared_bytes(l.c, l.r, l.s, l.stride);
  int most = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  if (shared > most) {  // a wider stride's patches: the candidate does not fit
    std::printf("halo: %lld bytes of shared memory needed, %d allowed: not run\n", shared, most);
    Result skipped;
    skipped.name = "halo (does not fit)";
    skipped.correct = true;
    return skipped;
  }
  CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(shared)));
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const Conv d = l.shape();
  const long long tiles = static_cast<long long>(d.n) *
                          ((d.p + tl::gpu::kHaloTileRows - 1) / tl::gpu::kHaloTileRows) *
                          ((d.q + tl::gpu::kHaloTileCols - 1) / tl::gpu::kHaloTileCols);
  const dim3 grid(static_cast<unsigned>(tiles < sms ? tiles : sms),
                  static_cast<unsigned>((d.k + tl::gpu::kHaloFilters - 1) / tl::gpu::kHaloFilters));
  std::printf("halo: %lld tiles on %u blocks, %lld bytes of shared memory\n", tiles, grid.x,
              shared);
  return check_and_time(name, l, out, host_in, host_wg, [&] {
    kernel<<<grid, tl::gpu::kHaloThreads, shared>>>(in, wg, out, l.n, l.c, l.h, l.w, l.k, l.r, l.s,
                                                    l.stride, l.pad, tl::Untraced{});
  });
}

// The lesson's resident form (lessons/11_convolution/kernels/convolution_resident.cuh) with
// kWarps warps of kRowsPerWarp 16-pixel rows each; the app launches kernels::kResidentWarps ×
// kernels::kResidentRowsPerWarp.
template <int kWarps, int kRowsPerWarp>
Result run_resident(const char* name, const Layer& l, const __half* in, const __half* wg,
                    float* out, const std::vector<__half>& host_in,
                    const std::vector<__half>& host_wg) {
  auto* kernel =
      tl::gpu::conv_implicit_gemm_fp16_resident<3, 3, 64, kWarps, kRowsPerWarp, tl::Untraced>;
  const Conv c = l.shape();
  const tl::kernels::ConvDims d{c.n, c.c, c.h, c.w, c.k, c.r, c.s, c.stride, c.pad, c.p, c.q, 1};
  const int row_pitch = l.w + 2 * l.pad;
  const long long shared =
      tl::kernels::conv_resident_shared_bytes(kWarps, kRowsPerWarp, 3, 3, 64, row_pitch);
  const long long patch_halves =
      tl::kernels::conv_resident_patch_bytes(kWarps, kRowsPerWarp, 3, 3, 64, row_pitch) / 2;
  CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(shared)));
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const long long rows = tl::kernels::conv_resident_rows(d);
  const unsigned slices = static_cast<unsigned>((l.k + 63) / 64);
  const dim3 grid(static_cast<unsigned>(sms / slices), slices);
  std::printf("%s: %lld rows of 16 pixels on %u x %u blocks, %lld bytes of shared memory\n", name,
              rows, grid.x, grid.y, shared);
  return check_and_time(name, l, out, host_in, host_wg, [&] {
    kernel<<<grid, kWarps * 32, shared>>>(in, wg, out, l.n, l.h, l.w, l.k, l.pad, rows,
                                          patch_halves, tl::Untraced{});
  });
}

// The resident form on wgmma (tools/gpu/conv_wgmma_candidate.cuh); needs sm_90a.
Result run_wgmma(const char* name, const Layer& l, const __half* in, const __half* wg, float* out,
                 const std::vector<__half>& host_in, const std::vector<__half>& host_wg) {
  auto* kernel = tl::gpu::conv_implicit_gemm_fp16_wgmma<tl::Untraced>;
  const Conv c = l.shape();
  const tl::kernels::ConvDims d{c.n, c.c, c.h, c.w, c.k, c.r, c.s, c.stride, c.pad, c.p, c.q, 1};
  const long long shared = tl::gpu::conv_wgmma_shared_bytes(d);
  CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(shared)));
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const long long tiles = tl::gpu::conv_wgmma_tiles(d);
  const int patch_pixels = tl::gpu::conv_wgmma_patch_pixels(d);
  const auto grid = tl::kernels::conv_resident_grid(d, sms);
  std::printf("%s: %lld tiles of 64 pixels on %u x %u blocks, %lld bytes of shared memory\n", name,
              tiles, grid.x, grid.y, shared);
  return check_and_time(name, l, out, host_in, host_wg, [&] {
    kernel<<<dim3(grid.x, grid.y), tl::gpu::kConvWgmmaThreads, shared>>>(
        in, wg, out, l.n, l.h, l.w, l.k, l.pad, tiles, patch_pixels, tl::Untraced{});
  });
}

template <class Tile>
Result run_tile(const char* name, const Layer& l, const __half* in, const __half* wg, float* out,
                const std::vector<__half>& host_in, const std::vector<__half>& host_wg) {
  auto* kernel = tl::gpu::conv_implicit_gemm_fp16<Tile, tl::Untraced>;
  CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  Tile::kSharedBytes));
  const Conv d = l.shape();
  const long long pixels = static_cast<long long>(d.n) * d.p * d.q;
  const dim3 grid(static_cast<unsigned>((pixels + Tile::BM - 1) / Tile::BM),
                  static_cast<unsigned>((d.k + Tile::BN - 1) / Tile::BN));
  const auto launch = [&] {
    kernel<<<grid, tl::gpu::kTensorBlock, Tile::kSharedBytes>>>(
        in, wg, out, l.n, l.c, l.h, l.w, l.k, l.r, l.s, l.stride, l.pad, tl::Untraced{});
  };
  return check_and_time(name, l, out, host_in, host_wg, launch);
}

}  // namespace

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  Layer l;
  if (argc > 1) l.n = std::atoi(argv[1]);
  if (argc > 2 && std::string(argv[2]) == "once") g_time = false;
  const Conv d = l.shape();
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; layer N=%d C=%d %dx%d K=%d %dx%d stride %d pad %d, NHWC\n", prop.name,
              prop.multiProcessorCount, l.n, l.c, l.h, l.w, l.k, l.r, l.s, l.stride, l.pad);
  const long long in_count = static_cast<long long>(l.n) * l.h * l.w * l.c;
  const long long wg_count = static_cast<long long>(l.r) * l.s * l.c * l.k;
  const long long out_count = static_cast<long long>(d.n) * d.p * d.q * d.k;
  std::vector<__half> host_in(in_count), host_wg(wg_count);
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (auto& v : host_in) v = __float2half(uniform(random));
  for (auto& v : host_wg) v = __float2half(uniform(random) * 0.1f);
  __half *in = nullptr, *wg = nullptr;
  float* out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, in_count * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&wg, wg_count * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&out, out_count * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host_in.data(), in_count * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(wg, host_wg.data(), wg_count * sizeof(__half), cudaMemcpyHostToDevice));

  using tl::gpu::ConvTensorTile;
  std::vector<Result> results;
  // BM, BN, BK, warps along M (8 warps in all), stages.
  results.push_back(run_tile<tl::gpu::ConvTensorLessonTile>("lesson 128x64x32 w4x2 s3", l, in, wg,
                                                            out, host_in, host_wg));
  if (l.r == 3 && l.s == 3 && l.c == 64) {
    results.push_back(run_tile<ConvTensorTile<128, 64, 32, 4, 3, 3, 3, 64>>(
        "lesson tile, 3x3x64 fixed", l, in, wg, out, host_in, host_wg));
    results.push_back(run_tile<ConvTensorTile<128, 64, 64, 4, 3, 3, 3, 64>>(
        "128x64x64 s3, 3x3x64 fixed", l, in, wg, out, host_in, host_wg));
  }
  results.push_back(run_halo("halo + resident weights", l, in, wg, out, host_in, host_wg));
  if (l.r == 3 && l.s == 3 && l.c == 64 && l.stride == 1) {
    results.push_back(
        run_halo<3, 3, 64, 1>("halo, 3x3x64 unrolled", l, in, wg, out, host_in, host_wg));
    results.push_back(run_wgmma("resident on wgmma", l, in, wg, out, host_in, host_wg));
    results.push_back(
        run_resident<8, 2>("resident 8 warps x 2 rows", l, in, wg, out, host_in, host_wg));
    results.push_back(
        run_resident<8, 1>("resident 8 warps x 1 row", l, in, wg, out, host_in, host_wg));
    results.push_back(
        run_resident<4, 4>("resident 4 warps x 4 rows", l, in, wg, out, host_in, host_wg));
    results.push_back(
        run_resident<4, 2>("resident 4 warps x 2 rows", l, in, wg, out, host_in, host_wg));
    // A batch whose padded images and chunks do not line up, and more filters than one slice.
    Layer odd = l;
    odd.n = 3;
    odd.h = 13;
    odd.w = 21;
    odd.k = 136;
    std::vector<__half> odd_in(static_cast<std::size_t>(odd.n) * odd.h * odd.w * odd.c),
        odd_wg(static_cast<std::size_t>(odd.r) * odd.s * odd.c * odd.k);
    for (auto& v : odd_in) v = __float2half(uniform(random));
    for (auto& v : odd_wg) v = __float2half(uniform(random) * 0.1f);
    __half *odd_in_device = nullptr, *odd_wg_device = nullptr;
    CHECK_CUDA(cudaMalloc(&odd_in_device, odd_in.size() * sizeof(__half)));
    CHECK_CUDA(cudaMalloc(&odd_wg_device, odd_wg.size() * sizeof(__half)));
    CHECK_CUDA(cudaMemcpy(odd_in_device, odd_in.data(), odd_in.size() * sizeof(__half),
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(odd_wg_device, odd_wg.data(), odd_wg.size() * sizeof(__half),
                          cudaMemcpyHostToDevice));
    results.push_back(run_resident<8, 2>("resident, odd layer", odd, odd_in_device, odd_wg_device,
                                         out, odd_in, odd_wg));
    results.push_back(
        run_wgmma("wgmma, odd layer", odd, odd_in_device, odd_wg_device, out, odd_in, odd_wg));
    odd.pad = 0;  // no padding: the flattened rows are the image's own
    results.push_back(run_resident<8, 2>("resident, odd, no padding", odd, odd_in_device,
                                         odd_wg_device, out, odd_in, odd_wg));
    results.push_back(run_wgmma("wgmma, odd, no padding", odd, odd_in_device, odd_wg_device, out,
                                odd_in, odd_wg));
    odd.n = 1;
    odd.h = 3;
    odd.w = 3;
    odd.k = 16;
    odd.pad = 1;  // one image smaller than a tile
    results.push_back(
        run_wgmma("wgmma, 3x3 image", odd, odd_in_device, odd_wg_device, out, odd_in, odd_wg));
    CHECK_CUDA(cudaFree(odd_in_device));
    CHECK_CUDA(cudaFree(odd_wg_device));
  }
  // Stride 2 through the halo kernel too (its leading dimension skips every other pixel), with
  // a 1 x 1 filter so that its patches fit.
  Layer strided = l;
  strided.stride = 2;
  strided.r = strided.s = 1;
  strided.pad = 0;
  results.push_back(run_halo("halo, 1x1 stride 2", strided, in, wg, out, host_in, host_wg));
  if (!g_time) {
    bool ok = true;
    for (const Result& r : results) {
      std::printf("%-26s %s (worst error %.2e)\n", r.name.c_str(), r.correct ? "right" : "WRONG",
                  r.worst);
      ok = ok && r.correct;
    }
    return ok ? 0 : 1;
  }
  results.push_back(run_tile<ConvTensorTile<128, 64, 64, 4, 3>>("128x64x64 w4x2 s3", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<128, 64, 32, 4, 4>>("128x64x32 w4x2 s4", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<128, 64, 64, 4, 4>>("128x64x64 w4x2 s4", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<128, 64, 32, 8, 3>>("128x64x32 w8x1 s3", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<256, 64, 32, 4, 3>>("256x64x32 w4x2 s3", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<256, 64, 64, 4, 3>>("256x64x64 w4x2 s3", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<256, 64, 32, 8, 4>>("256x64x32 w8x1 s4", l, in, wg, out,
                                                                host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<64, 64, 32, 2, 3>>("64x64x32 w2x4 s3", l, in, wg, out,
                                                               host_in, host_wg));
  results.push_back(run_tile<ConvTensorTile<64, 64, 64, 2, 4>>("64x64x64 w2x4 s4", l, in, wg, out,
                                                               host_in, host_wg));

  const double base = results.front().times.median;
  bool all_correct = true;
  std::printf("%-26s %10s %10s %9s %12s %s\n", "tile", "median ms", "best ms", "TFLOP/s",
              "vs lesson", "worst error");
  for (const Result& r : results) {
    all_correct = all_correct && r.correct;
    std::printf("%-26s %10.4f %10.4f %9.1f %11.3fx %.2e%s\n", r.name.c_str(), r.times.median,
                r.times.best, r.flops / (r.times.median * 1e-3) / 1e12, base / r.times.median,
                r.worst, r.correct ? "" : "  WRONG");
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(wg));
  CHECK_CUDA(cudaFree(out));
  return all_correct ? 0 : 1;
}
