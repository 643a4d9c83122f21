// threadlab-emulator-bench: times lesson 4's naive and tiled matmul on the CPU emulator and prints
// the ratio. The tiled kernel calls __syncthreads() twice per tile, so its time beyond the naive
// one is almost all fiber switching: this is the figure that says whether barriers are cheap
// enough for a learner's reduction on a large hidden check (issue 17 asks for tiled ≤ 3× naive at
// 256³ on a 2-core machine). A benchmark, not a test: it asserts nothing about time.
//
//   threadlab-emulator-bench [SIZE] [REPEATS]     (defaults: 256, 7)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "kernels/matmul_kernels.hpp"

namespace {

constexpr int kTile = 16;

// Median wall time of `repeats` runs after one warm-up, in milliseconds; negative if a run failed.
double median_ms(int repeats, const std::function<tl::Status()>& run) {
  if (tl::Status warm = run(); !warm.is_ok()) {
    std::fprintf(stderr, "emulator-bench: %s\n", warm.message().c_str());
    return -1.0;
  }
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    if (tl::Status status = run(); !status.is_ok()) {
      std::fprintf(stderr, "emulator-bench: %s\n", status.message().c_str());
      return -1.0;
    }
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
  if (size <= 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: threadlab-emulator-bench [SIZE>0] [REPEATS>0]\n");
    return 2;
  }
  const int m = size, n = size, k = size;
  std::vector<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n);
  std::vector<float> c_naive(static_cast<std::size_t>(m) * n), c_tiled(c_naive.size());
  std::mt19937 random(17);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (float& x : a) x = value(random);
  for (float& x : b) x = value(random);

  const auto kernels = tl::kernels::matmul_emulated();
  const auto blocks = static_cast<std::uint32_t>((size + kTile - 1) / kTile);
  const tl::LaunchConfig config{{blocks, blocks, 1}, {kTile, kTile, 1}};

  const double naive = median_ms(
      repeats, [&] { return kernels.naive(config, a.data(), b.data(), c_naive.data(), m, n, k); });
  const double tiled = median_ms(repeats, [&] {
    return kernels.tiled(config, kTile, a.data(), b.data(), c_tiled.data(), m, n, k);
  });
  if (naive < 0 || tiled < 0) return 1;
  float worst = 0.0f;
  for (std::size_t i = 0; i < c_naive.size(); ++i) {
    worst = std::max(worst, std::abs(c_naive[i] - c_tiled[i]));
  }
  const std::size_t barriers_per_block = 2 * static_cast<std::size_t>((k + kTile - 1) / kTile);
  std::printf("emulated matmul %d^3, %ux%u blocks of %dx%d threads, %u workers, median of %d\n",
              size, blocks, blocks, kTile, kTile, tl::emu::worker_count(), repeats);
  std::printf("  naive: %9.2f ms\n", naive);
  std::printf("  tiled: %9.2f ms  (%zu barriers per block)\n", tiled, barriers_per_block);
  std::printf("  tiled / naive: %.2fx   (largest difference between the results: %g)\n",
              tiled / naive, static_cast<double>(worst));
  return worst < 1e-3f * static_cast<float>(k) ? 0 : 1;
}
