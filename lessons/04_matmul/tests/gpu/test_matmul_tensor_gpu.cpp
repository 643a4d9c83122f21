// Lesson 4's tensor-core rungs on a real GPU (compute capability 8.0 or newer): each against a
// float64 product of its own rounded inputs on sizes that are no multiple of any tile (and both of
// the mma and wgmma rungs' copy paths: 16-byte cp.async where rows are 16-byte aligned, element by
// element where not; the wgmma rung on compute capability 9.0 alone), through the runner with its
// checks and traces, and the fragment layout the lesson draws against the registers of a real
// ldmatrix and mma.sync. Skipped, visibly, without a GPU.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/kernels/matmul_tensor_layout.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"

namespace tl::testing {
namespace {

using lessons::MatmulInput;
using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

class MatmulTensorGpu : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    const Status available =
        lessons::tensor_rung_available(device().info(), MatmulKernel::kMmaFp16);
    if (!available) GTEST_SKIP() << available.message();
  }
};

// The tensor rungs this GPU runs: all of them from compute capability 8.0, the wgmma rung on 9.0
// alone (its absence elsewhere is tests/core/test_matmul_tensor.cpp's).
std::vector<MatmulKernel> runnable_rungs(const compute::Device& device) {
  std::vector<MatmulKernel> kernels;
  for (MatmulKernel kernel : lessons::kMatmulTensorRungs) {
    if (lessons::tensor_rung_available(device.info(), kernel)) kernels.push_back(kernel);
  }
  return kernels;
}

std::vector<MatmulVariant> tensor_rungs(const compute::Device& device) {
  std::vector<MatmulVariant> variants;
  for (MatmulKernel kernel : runnable_rungs(device)) variants.push_back({kernel, 16, {}});
  return variants;
}

// C from one launch of `kernel` on A (m×k) and B (k×n), through the device's kernel table.
std::vector<float> multiply_on_gpu(compute::Device& device, MatmulKernel kernel,
                                   const std::vector<float>& a, const std::vector<float>& b,
                                   const MatmulSize& size) {
  const MatmulInput input = lessons::matmul_input(kernel);
  const std::size_t element = input == MatmulInput::kTf32 ? 4 : 2;
  auto d_a = compute::allocate_array<unsigned char>(device, a.size() * element);
  auto d_b = compute::allocate_array<unsigned char>(device, b.size() * element);
  auto d_c = compute::allocate_array<float>(device, size.c_elements());
  EXPECT_TRUE(d_a && d_b && d_c);
  if (input == MatmulInput::kTf32) {
    EXPECT_TRUE(device.copy_to_device(d_a->data(), a.data(), a.size() * 4).is_ok());
    EXPECT_TRUE(device.copy_to_device(d_b->data(), b.data(), b.size() * 4).is_ok());
  } else {
    const auto a_words = lessons::sixteen_bit_inputs(a, input);
    const auto b_words = lessons::sixteen_bit_inputs(b, input);
    EXPECT_TRUE(device.copy_to_device(d_a->data(), a_words.data(), a.size() * 2).is_ok());
    EXPECT_TRUE(device.copy_to_device(d_b->data(), b_words.data(), b.size() * 2).is_ok());
  }
  std::vector<float> c(size.c_elements(), std::nanf(""));
  EXPECT_TRUE(device.copy_to_device(d_c->data(), c.data(), c.size() * 4).is_ok());
  const LaunchConfig config = lessons::matmul_covering_config(size, {kernel, 16, {}});
  const Status launched = device.kernels().get<kernels::MatmulKernels>().tensor(
      config, kernel, d_a->data(), d_b->data(), d_c->data(), static_cast<int>(size.m),
      static_cast<int>(size.n), static_cast<int>(size.k), nullptr);
  EXPECT_TRUE(launched.is_ok()) << launched.message();
  EXPECT_TRUE(device.synchronize().is_ok());
  EXPECT_TRUE(device.copy_to_host(c.data(), d_c->data(), c.size() * 4).is_ok());
  return c;
}

TEST_F(MatmulTensorGpu, EveryRungMatchesAFloat64ProductOfItsRoundedInputs) {
  // 131×77×93: rows of 93 and 77 halves, not 16-byte aligned (the mma rung copies element by
  // element); 200×264×136 and 257×136×1000: aligned rows (cp.async) with partial tiles in M and
  // in K (and, for the wgmma rung's 128×256 tiles, two tiles across n = 264); 1×1×1 and 16×8×16:
  // one instruction's worth and less.
  for (const MatmulSize size :
       {MatmulSize{131, 77, 93}, MatmulSize{200, 264, 136}, MatmulSize{257, 136, 1000},
        MatmulSize{1, 1, 1}, MatmulSize{16, 8, 16}}) {
    std::mt19937 random(size.m * 7 + size.k);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> a(size.a_elements()), b(size.b_elements());
    // Magnitudes that differ (a quarter of A four times larger), so a wrong index shows.
    for (float& x : a) x = uniform(random) * (random() % 4 == 0 ? 4.0f : 1.0f);
    for (float& x : b) x = uniform(random);
    for (MatmulKernel kernel : runnable_rungs(device())) {
      SCOPED_TRACE(std::string(lessons::to_string(kernel)) + " at " + size.to_string());
      const MatmulInput input = lessons::matmul_input(kernel);
      const std::vector<float> ra = lessons::rounded_inputs(a, input);
      const std::vector<float> rb = lessons::rounded_inputs(b, input);
      const std::vector<float> c = multiply_on_gpu(device(), kernel, a, b, size);
      std::uint64_t wrong = 0;
      for (std::uint32_t i = 0; i < size.m; ++i) {
        for (std::uint32_t j = 0; j < size.n; ++j) {
          double exact = 0, magnitude = 0;
          for (std::uint32_t l = 0; l < size.k; ++l) {
            const double term = static_cast<double>(ra[i * size.k + l]) * rb[l * size.n + j];
            exact += term;
            magnitude += std::fabs(term);
          }
          // Float32 accumulation, possibly truncating: 3·K·2⁻²⁴ of Σ|a||b| (kTensorToleranceScale).
          const double tolerance = 3.0 * size.k * std::ldexp(1.0, -24) * magnitude + 1e-30;
          const double error = std::fabs(static_cast<double>(c[i * size.n + j]) - exact);
          if (!(error <= tolerance) && wrong++ < 3) {
            ADD_FAILURE() << "C(" << i << ", " << j << ") = " << c[i * size.n + j] << ", float64 "
                          << exact << ", allowed " << tolerance;
          }
        }
      }
      EXPECT_EQ(wrong, 0u);
    }
  }
}

TEST_F(MatmulTensorGpu, TheRunnerChecksEveryRungAndTimesCublasAtItsPrecision) {
  for (const MatmulSize size :
       {MatmulSize{37, 53, 29}, MatmulSize{130, 257, 66}, MatmulSize{264, 136, 200}}) {
    compute::MatmulRequest request;
    request.size = size;
    request.variants = tensor_rungs(device());
    request.warmup = 0;
    request.repeats = 1;
    request.time_cpu = false;
    auto report = compute::run_matmul(device(), request);
    ASSERT_TRUE(report.is_ok()) << size.to_string() << ": " << report.message();
    for (const compute::MatmulTiming& row : report->kernels) {
      ASSERT_TRUE(row.ran()) << row.name << ": " << row.skipped;
      ASSERT_TRUE(row.check.has_value()) << row.name;
      EXPECT_TRUE(row.check->passed)
          << size.to_string() << " " << row.name << ": " << row.check->describe();
      EXPECT_NE(row.check_reference.find("-rounded inputs"), std::string::npos)
          << row.check_reference;
    }
    ASSERT_EQ(report->cublas_tensor.size(), 3u);  // FP16, BF16, TF32
    for (const compute::MatmulLibraryTiming& library : report->cublas_tensor) {
      EXPECT_TRUE(library.timing.ran()) << library.timing.name << ": " << library.timing.skipped;
    }
  }
}

TEST_F(MatmulTensorGpu, EveryRungTracesEachElementOnce) {
  const MatmulSize size{130, 257, 66};
  for (const MatmulVariant& variant : tensor_rungs(device())) {
    SCOPED_TRACE(variant.to_string());
    const LaunchConfig config = lessons::matmul_covering_config(size, variant);
    compute::HostTraceSink sink;
    auto traced = compute::trace_matmul(device(), size, variant, config, sink);
    ASSERT_TRUE(traced.is_ok()) << traced.message();
    ASSERT_TRUE(traced->check.has_value());
    EXPECT_TRUE(traced->check->passed) << traced->check->describe();
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
  }
}

TEST_F(MatmulTensorGpu, TheDrawnFragmentLayoutIsTheHardwares) {
  auto a_out = compute::allocate_array<float>(device(), 256);
  auto b_out = compute::allocate_array<float>(device(), 256);
  auto c_out = compute::allocate_array<float>(device(), 128);
  ASSERT_TRUE(a_out && b_out && c_out);
  const Status ran = device().kernels().get<kernels::MatmulKernels>().tensor_layout_probe(
      a_out->data(), b_out->data(), c_out->data());
  ASSERT_TRUE(ran.is_ok()) << ran.message();
  ASSERT_TRUE(device().synchronize().is_ok());
  std::vector<float> a(256), b(256), c(128);
  ASSERT_TRUE(device().copy_to_host(a.data(), a_out->data(), 256 * 4).is_ok());
  ASSERT_TRUE(device().copy_to_host(b.data(), b_out->data(), 256 * 4).is_ok());
  ASSERT_TRUE(device().copy_to_host(c.data(), c_out->data(), 128 * 4).is_ok());
  using kernels::mma_element;
  using kernels::MmaOperand;
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 8; ++i) {
      const auto e = mma_element(MmaOperand::kA, lane, i);
      EXPECT_EQ(a[lane * 8 + i], 16.0f * e.row + e.col) << "lane " << lane << " a" << i;
    }
    for (int tile = 0; tile < 2; ++tile) {
      for (int i = 0; i < 4; ++i) {
        const auto e = mma_element(MmaOperand::kB, lane, i);
        EXPECT_EQ(b[lane * 8 + 4 * tile + i], 16.0f * e.row + (e.col + 8 * tile))
            << "lane " << lane << " b" << i << " of columns " << 8 * tile << "-" << 8 * tile + 7;
      }
    }
    for (int i = 0; i < 4; ++i) {
      const auto e = mma_element(MmaOperand::kC, lane, i);
      EXPECT_EQ(c[lane * 4 + i], 8.0f * e.row + e.col) << "lane " << lane << " c" << i;
    }
  }
}

}  // namespace
}  // namespace tl::testing
