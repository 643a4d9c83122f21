// The emulator's low-precision arithmetic against the GPU's, bit for bit: a fixed set of awkward
// values (subnormals, ties, overflow, the largest values, NaN, infinity, signed zeros) rounded to
// TF32, FP16 and BF16 on the device, and FP16, BF16 and FP32 multiply-adds and adds of awkward
// operands, each compared with core/numeric/low_precision and with the emulator's kernels. Then the
// precision lesson's whole run on both backends at the same parameters: the same results, bit for
// bit, so its error table is the same on both.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "compute/device.hpp"
#include "core/numeric/low_precision.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/08_precision/kernels/precision_kernels.hpp"
#include "lessons/08_precision/precision_runner.hpp"

namespace tl::testing {
namespace {

using numeric::FloatFormat;

class PrecisionGpu : public GpuTest {};

float from_bits(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}

std::string hex(std::uint64_t bits) {
  std::ostringstream out;
  out << "0x" << std::hex << std::uppercase << bits;
  return out.str();
}

// Floats whose roundings are easy to get wrong, then a spread of random bit patterns.
std::vector<float> awkward_floats() {
  std::vector<float> v = {0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          0.1f,
                          1.0f / 3.0f,
                          65504.0f,
                          65519.0f,
                          65520.0f,
                          65535.0f,
                          70000.0f,
                          -70000.0f,
                          1e10f,
                          0x1p-14f,
                          0x1p-24f,
                          0x1p-25f,
                          0x1.8p-25f,
                          3 * 0x1p-25f,
                          0x1p-14f - 0x1p-24f,
                          0x1p-126f,
                          0x1p-127f,
                          0x1p-133f,
                          0x1p-134f,
                          1.0f + 0x1p-11f,
                          1.0f + 3 * 0x1p-11f,
                          std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity()};
  for (std::uint32_t bits :
       {0x00000001u, 0x00001000u, 0x00003000u, 0x00008000u, 0x00018000u, 0x80010000u, 0x3F801000u,
        0x3F803000u, 0xBF801000u, 0x3F800FFFu, 0x3F808000u, 0x3F818000u, 0x3F808001u, 0x7F7FF000u,
        0x7F7FEFFFu, 0x7F7F7FFFu, 0x7F7F8000u, 0x477FEFFFu, 0x477FF000u, 0x33000000u, 0x33000001u,
        0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FC01234u, 0xFFFFFFFFu}) {
    v.push_back(from_bits(bits));
  }
  std::mt19937 engine(20);
  for (int i = 0; i < 4096; ++i) v.push_back(from_bits(engine()));
  return v;
}

// 16-bit operands: every value the awkward floats round to, plus the formats' edges.
std::vector<std::uint16_t> awkward_words(FloatFormat format) {
  std::vector<std::uint16_t> words = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00,
                                      0xBC00, 0x3C01, 0x3BFF, 0x6800, 0x7BFF, 0xFBFF, 0x7C00,
                                      0xFC00, 0x7FFF, 0x3F80, 0xBF80, 0x3F81, 0x7F7F, 0xFF7F,
                                      0x7F80, 0xFF80, 0x0080, 0x007F, 0x4B80, 0x3800, 0x3F00};
  for (float x : awkward_floats()) {
    if (words.size() >= 48) break;
    words.push_back(format == FloatFormat::kFp16 ? numeric::float_to_half_bits(x)
                                                 : numeric::float_to_bfloat16_bits(x));
  }
  return words;
}

LaunchConfig covering(std::size_t n) {
  return {Dim3{static_cast<std::uint32_t>((n + 255) / 256), 1, 1}, Dim3{256, 1, 1}};
}

// Runs `launch` on `device` over host inputs of `bytes_each`, returns the output's bytes.
template <class Launch>
std::vector<std::uint8_t> run_on(compute::Device& device,
                                 std::vector<std::vector<std::uint8_t>> ins, std::size_t out_bytes,
                                 Launch launch) {
  std::vector<compute::DeviceArray<std::uint8_t>> device_ins;
  for (const auto& in : ins) {
    auto array = compute::allocate_array<std::uint8_t>(device, in.size());
    EXPECT_TRUE(array.is_ok());
    EXPECT_TRUE(device.copy_to_device(array->data(), in.data(), in.size()).is_ok());
    device_ins.push_back(std::move(*array));
  }
  auto out = compute::allocate_array<std::uint8_t>(device, out_bytes);
  EXPECT_TRUE(out.is_ok());
  std::vector<const void*> pointers;
  for (const auto& array : device_ins) pointers.push_back(array.data());
  const Status launched =
      launch(device.kernels().get<kernels::PrecisionKernels>(), pointers, out->data());
  EXPECT_TRUE(launched.is_ok()) << launched.message();
  EXPECT_TRUE(device.synchronize().is_ok());
  std::vector<std::uint8_t> host(out_bytes);
  EXPECT_TRUE(device.copy_to_host(host.data(), out->data(), out_bytes).is_ok());
  return host;
}

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <class T>
std::vector<T> values_of(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

TEST_F(PrecisionGpu, RoundingAwkwardValuesMatchesTheEmulatorBitForBit) {
  auto emulator = compute::make_emulator_device();
  const auto in = awkward_floats();
  const int n = static_cast<int>(in.size());
  for (FloatFormat format : {FloatFormat::kTf32, FloatFormat::kFp16, FloatFormat::kBf16}) {
    const std::size_t width = numeric::layout(format).storage_bits / 8;
    auto launch = [&](const kernels::PrecisionKernels& k, const std::vector<const void*>& p,
                      void* out) {
      return k.round_floats(format, covering(in.size()), static_cast<const float*>(p[0]), out, n);
    };
    const auto gpu = run_on(device(), {bytes_of(in)}, in.size() * width, launch);
    const auto emulated = run_on(*emulator, {bytes_of(in)}, in.size() * width, launch);
    EXPECT_EQ(gpu, emulated) << numeric::to_string(format);
    int mismatches = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      std::uint32_t got = 0, want = 0;
      if (width == 2) {
        got = values_of<std::uint16_t>(gpu)[i];
        want = format == FloatFormat::kFp16 ? numeric::float_to_half_bits(in[i])
                                            : numeric::float_to_bfloat16_bits(in[i]);
      } else {
        got = std::bit_cast<std::uint32_t>(values_of<float>(gpu)[i]);
        want = std::bit_cast<std::uint32_t>(numeric::round_to_tf32(in[i]));
      }
      if (got != want && ++mismatches <= 20) {
        ADD_FAILURE() << numeric::to_string(format) << " of "
                      << hex(std::bit_cast<std::uint32_t>(in[i])) << ": GPU " << hex(got)
                      << ", emulator " << hex(want);
      }
    }
    EXPECT_EQ(mismatches, 0) << numeric::to_string(format);
  }
}

TEST_F(PrecisionGpu, MultiplyAddAndAddMatchTheEmulatorBitForBit) {
  auto emulator = compute::make_emulator_device();
  for (FloatFormat format : {FloatFormat::kFp16, FloatFormat::kBf16}) {
    const auto words = awkward_words(format);
    std::vector<std::uint16_t> a, b, c;
    for (std::uint16_t x : words) {
      for (std::uint16_t y : words) {
        for (std::uint16_t z : words) {
          a.push_back(x);
          b.push_back(y);
          c.push_back(z);
        }
      }
    }
    const int n = static_cast<int>(a.size());
    auto fma = [&](const kernels::PrecisionKernels& k, const std::vector<const void*>& p,
                   void* out) {
      return k.multiply_add_each(format, covering(a.size()), p[0], p[1], p[2], out, n);
    };
    auto add = [&](const kernels::PrecisionKernels& k, const std::vector<const void*>& p,
                   void* out) {
      return k.add_each(format, covering(a.size()), p[0], p[1], out, n);
    };
    const std::size_t bytes = a.size() * 2;
    const auto gpu_fma = values_of<std::uint16_t>(
        run_on(device(), {bytes_of(a), bytes_of(b), bytes_of(c)}, bytes, fma));
    const auto emulated_fma = values_of<std::uint16_t>(
        run_on(*emulator, {bytes_of(a), bytes_of(b), bytes_of(c)}, bytes, fma));
    const auto gpu_add =
        values_of<std::uint16_t>(run_on(device(), {bytes_of(a), bytes_of(b)}, bytes, add));
    int mismatches = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const bool half = format == FloatFormat::kFp16;
      const std::uint16_t want_fma = half ? numeric::half_fma_bits(a[i], b[i], c[i])
                                          : numeric::bfloat16_fma_bits(a[i], b[i], c[i]);
      const std::uint16_t want_add =
          half ? numeric::half_add_bits(a[i], b[i]) : numeric::bfloat16_add_bits(a[i], b[i]);
      EXPECT_EQ(emulated_fma[i], want_fma);
      if ((gpu_fma[i] != want_fma || gpu_add[i] != want_add) && ++mismatches <= 20) {
        ADD_FAILURE() << numeric::to_string(format) << " " << hex(a[i]) << "·" << hex(b[i]) << " + "
                      << hex(c[i]) << ": GPU " << hex(gpu_fma[i]) << ", emulator " << hex(want_fma)
                      << "; " << hex(a[i]) << " + " << hex(b[i]) << ": GPU " << hex(gpu_add[i])
                      << ", emulator " << hex(want_add);
      }
    }
    EXPECT_EQ(mismatches, 0) << numeric::to_string(format);
  }
}

TEST_F(PrecisionGpu, Fp32MultiplyAddKeepsSubnormalsAsTheEmulatorDoes) {
  auto emulator = compute::make_emulator_device();
  const std::vector<float> values = {
      0x1p-149f, 0x1p-126f, 0x1.8p-127f, -0x1p-140f, 1.0f, 0x1p-23f,
      -1.0f,     3.0f,      0x1p100f,    0x1p-100f,  0.1f, std::numeric_limits<float>::max()};
  std::vector<float> a, b, c;
  for (float x : values) {
    for (float y : values) {
      for (float z : values) {
        a.push_back(x);
        b.push_back(y);
        c.push_back(z);
      }
    }
  }
  const int n = static_cast<int>(a.size());
  auto fma = [&](const kernels::PrecisionKernels& k, const std::vector<const void*>& p, void* out) {
    return k.multiply_add_each(FloatFormat::kFp32, covering(a.size()), p[0], p[1], p[2], out, n);
  };
  const auto gpu = run_on(device(), {bytes_of(a), bytes_of(b), bytes_of(c)}, a.size() * 4, fma);
  const auto emulated =
      run_on(*emulator, {bytes_of(a), bytes_of(b), bytes_of(c)}, a.size() * 4, fma);
  const auto g = values_of<std::uint32_t>(gpu);
  const auto e = values_of<std::uint32_t>(emulated);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool both_nan = std::isnan(from_bits(g[i])) && std::isnan(from_bits(e[i]));
    if (!both_nan) EXPECT_EQ(hex(g[i]), hex(e[i])) << a[i] << "·" << b[i] << " + " << c[i];
  }
}

TEST_F(PrecisionGpu, TheLessonsResultsAreTheSameOnBothBackends) {
  auto emulator = compute::make_emulator_device();
  compute::PrecisionRequest request;
  request.params.n = (1 << 16) + 7;
  request.params.size = 45;
  request.params.blocks = 64;
  request.warmup = 0;
  request.repeats = 1;
  for (auto data : {lessons::PrecisionData::kUniform, lessons::PrecisionData::kLarge,
                    lessons::PrecisionData::kTiny}) {
    request.params.data = data;
    auto gpu = compute::run_precision(device(), request);
    auto emulated = compute::run_precision(*emulator, request);
    ASSERT_TRUE(gpu.is_ok()) << gpu.message();
    ASSERT_TRUE(emulated.is_ok()) << emulated.message();
    EXPECT_TRUE(gpu->passed()) << gpu->describe_check();
    ASSERT_EQ(gpu->results.size(), emulated->results.size());
    for (std::size_t i = 0; i < gpu->results.size(); ++i) {
      const auto& g = gpu->results[i];
      const auto& e = emulated->results[i];
      const std::string what =
          lessons::variant_key(g.variant) + " on " + std::string(lessons::to_string(data));
      EXPECT_EQ(hex(std::bit_cast<std::uint64_t>(g.dot)), hex(std::bit_cast<std::uint64_t>(e.dot)))
          << what << ": GPU " << g.dot << ", emulator " << e.dot;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(g.matmul_error),
                std::bit_cast<std::uint64_t>(e.matmul_error))
          << what;
      EXPECT_EQ(g.matmul_not_finite, e.matmul_not_finite) << what;
    }
  }
}

}  // namespace
}  // namespace tl::testing
