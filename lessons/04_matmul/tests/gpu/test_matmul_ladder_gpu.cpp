// The matrix-multiply ladder on a real GPU alone: every shape the pipelined rung's tuning may
// choose, and the tuning itself. Skipped, visibly, without a GPU (gpu_test_environment.hpp). Every
// rung against the reference on every device is lessons/04_matmul/tests/test_matmul_ladder.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

class MatmulLadderGpu : public GpuTest {};

// Every shape the pipelined rung's autotuning may choose (lessons/04_matmul/kernels/matmul_gpu.cu)
// against a float64 reference, since any of them may be the one the lesson times: sizes that are no
// multiple of the 128 × 128 tile or of any BK (the copies' zero fill), B and C one float past a
// 16-byte boundary (B's 4-byte copies), and whole tiles (the copies without bounds checks). The
// floats around C must stay as they were. Tolerance: 1e-6 · √k of the sum of |a·b| (float32 sums of
// k products, rounded k times).
TEST_F(MatmulLadderGpu, EveryPipelinedShapeMatchesAFloat64Reference) {
  struct Case {
    int m, n, k, shift;
  };
  const Case cases[] = {{131, 97, 77, 0}, {130, 131, 15, 1}, {257, 300, 129, 1},
                        {1, 1, 1, 0},     {256, 260, 48, 0}, {256, 128, 64, 0}};
  compute::Device& gpu = device();
  ASSERT_GE(kernels::matmul_pipelined_shape_count(), 1);
  for (int shape = 0; shape < kernels::matmul_pipelined_shape_count(); ++shape) {
    SCOPED_TRACE(kernels::matmul_pipelined_shape_name(shape));
    for (const Case& c : cases) {
      SCOPED_TRACE(std::to_string(c.m) + "×" + std::to_string(c.n) + "×" + std::to_string(c.k) +
                   " shifted by " + std::to_string(c.shift));
      const std::size_t a_count = std::size_t(c.m) * c.k, b_count = std::size_t(c.k) * c.n;
      const std::size_t c_count = std::size_t(c.m) * c.n + 2;
      std::vector<float> a(a_count), b(b_count + 1), out(c_count, -7.0f);
      lessons::fill_random(a, 11u + static_cast<unsigned>(c.k));
      lessons::fill_random(b, 13u + static_cast<unsigned>(c.n));
      auto da = compute::allocate_array<float>(gpu, a.size());
      auto db = compute::allocate_array<float>(gpu, b.size());
      auto dc = compute::allocate_array<float>(gpu, out.size());
      ASSERT_TRUE(da.is_ok() && db.is_ok() && dc.is_ok());
      ASSERT_TRUE(gpu.copy_to_device(da->data(), a.data(), a.size() * 4).is_ok());
      ASSERT_TRUE(gpu.copy_to_device(db->data(), b.data(), b.size() * 4).is_ok());
      ASSERT_TRUE(gpu.copy_to_device(dc->data(), out.data(), out.size() * 4).is_ok());
      const MatmulSize size{static_cast<std::uint32_t>(c.m), static_cast<std::uint32_t>(c.n),
                            static_cast<std::uint32_t>(c.k)};
      const LaunchConfig config =
          lessons::matmul_covering_config(size, {MatmulKernel::kPipelined, 16, {}});
      const Status launched = kernels::matmul_pipelined_shape_gpu(
          shape, config, da->data(), db->data() + c.shift, dc->data() + c.shift, c.m, c.n, c.k);
      ASSERT_TRUE(launched.is_ok()) << launched.message();
      ASSERT_TRUE(gpu.synchronize().is_ok());
      ASSERT_TRUE(gpu.copy_to_host(out.data(), dc->data(), out.size() * 4).is_ok());
      long wrong = 0;
      for (int i = 0; i < c.m; ++i) {
        for (int j = 0; j < c.n; ++j) {
          double exact = 0, magnitude = 0;
          for (int p = 0; p < c.k; ++p) {
            const double x = a[std::size_t(i) * c.k + p];
            const double y = b[c.shift + std::size_t(p) * c.n + j];
            exact += x * y;
            magnitude += std::fabs(x * y);
          }
          const double got = out[c.shift + std::size_t(i) * c.n + j];
          if (!(std::fabs(got - exact) <= 1e-6 * std::sqrt(double(c.k)) * magnitude + 1e-30)) {
            ++wrong;
          }
        }
      }
      EXPECT_EQ(wrong, 0);
      if (c.shift > 0) EXPECT_EQ(out[0], -7.0f);                // nothing written before C
      EXPECT_EQ(out[c.shift + std::size_t(c.m) * c.n], -7.0f);  // nor after it
    }
  }
}

// The first timed launch of at least kPipelinedTuneMinSide in every dimension tunes the rung for
// the device: afterwards the chosen shape is one of the list, with the times that chose it, and the
// product (the chosen shape's, launched last) is right, checked on 64 elements against float64.
TEST_F(MatmulLadderGpu, ALargePipelinedLaunchTunesItsShape) {
  const int side = kernels::kPipelinedTuneMinSide;
  const std::size_t count = std::size_t(side) * side;
  std::vector<float> a(count), b(count), c(count);
  lessons::fill_random(a, 21);
  lessons::fill_random(b, 22);
  compute::Device& gpu = device();
  auto da = compute::allocate_array<float>(gpu, count);
  auto db = compute::allocate_array<float>(gpu, count);
  auto dc = compute::allocate_array<float>(gpu, count);
  ASSERT_TRUE(da.is_ok() && db.is_ok() && dc.is_ok());
  ASSERT_TRUE(gpu.copy_to_device(da->data(), a.data(), count * 4).is_ok());
  ASSERT_TRUE(gpu.copy_to_device(db->data(), b.data(), count * 4).is_ok());
  const auto u = static_cast<std::uint32_t>(side);
  const LaunchConfig config =
      lessons::matmul_covering_config({u, u, u}, {MatmulKernel::kPipelined, 16, {}});
  const Status launched = gpu.kernels().get<kernels::MatmulKernels>().block_tiled(
      config, MatmulKernel::kPipelined, da->data(), db->data(), dc->data(), side, side, side);
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  ASSERT_TRUE(gpu.synchronize().is_ok());
  const std::string tuned = kernels::matmul_pipelined_tuned_gpu();
  std::cout << "pipelined rung tuned on this device: " << tuned << "\n";
  bool named = false;
  for (int shape = 0; shape < kernels::matmul_pipelined_shape_count(); ++shape) {
    named = named || tuned.rfind(kernels::matmul_pipelined_shape_name(shape) + " (", 0) == 0;
  }
  EXPECT_TRUE(named) << tuned;
  ASSERT_TRUE(gpu.copy_to_host(c.data(), dc->data(), count * 4).is_ok());
  for (int e = 0; e < 64; ++e) {
    const int i = (e * 389) % side, j = (e * 797 + 5) % side;
    double exact = 0, magnitude = 0;
    for (int p = 0; p < side; ++p) {
      const double x = a[std::size_t(i) * side + p], y = b[std::size_t(p) * side + j];
      exact += x * y;
      magnitude += std::fabs(x * y);
    }
    EXPECT_LE(std::fabs(c[std::size_t(i) * side + j] - exact), 1e-6 * 32 * magnitude)
        << i << "," << j;
  }
}

// A shape number outside the list is refused with the count, not launched.
TEST_F(MatmulLadderGpu, AnUnknownPipelinedShapeIsRefused) {
  const Status refused = kernels::matmul_pipelined_shape_gpu(
      kernels::matmul_pipelined_shape_count(), {{1, 1, 1}, {256, 1, 1}}, nullptr, nullptr, nullptr,
      1, 1, 1);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("shapes, not shape"), std::string::npos) << refused.message();
}

}  // namespace
}  // namespace tl::testing
