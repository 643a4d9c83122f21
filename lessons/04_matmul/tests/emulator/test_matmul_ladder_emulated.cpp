// The matrix-multiply ladder on the emulator alone: the uncoalesced kernel's mapping, the float4
// fallbacks for unaligned matrices (host memory, by the emulator's kernel table) and the refusal of
// block shapes a rung is not built for. Every rung against the reference on every device is
// lessons/04_matmul/tests/test_matmul_ladder.cpp.

#include <gtest/gtest.h>

#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/trace.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul_reference.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::compute {
namespace {

using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

// The uncoalesced kernel turns the mapping round: x picks the row, y the column.
TEST(MatmulLadderEmulatedTrace, UncoalescedThreadXPicksTheRow) {
  auto device = make_emulator_device();
  const MatmulSize size{21, 13, 5};
  const MatmulVariant variant{MatmulKernel::kUncoalesced, 16, {8, 4, 1}};
  const LaunchConfig config = lessons::matmul_covering_config(size, variant);
  EXPECT_EQ(config.grid, (Dim3{3, 4, 1}));  // ceil(21 / 8) over the rows, ceil(13 / 4) columns
  HostTraceSink sink;
  auto traced = trace_matmul(*device, size, variant, config, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  for (std::uint32_t row = 0; row < size.m; ++row) {
    for (std::uint32_t col = 0; col < size.n; ++col) {
      const std::uint64_t element = std::uint64_t{row} * size.n + col;
      const DecodedTrace d = decode(sink.records()[element], element, {size.m, size.n}, config);
      ASSERT_EQ(d.writes, 1u);
      ASSERT_EQ(d.block, (Dim3{row / 8, col / 4, 0})) << row << "," << col;
      ASSERT_EQ(d.thread, (Dim3{row % 8, col % 4, 0})) << row << "," << col;
    }
  }
}

// Matrices that start one float past a 16-byte boundary: the float4 loads must fall back to single
// floats (an unaligned float4 load faults on a GPU; here it would read the wrong elements).
TEST(MatmulLadderEmulatedAlignment, UnalignedMatricesTakeTheScalarPath) {
  const MatmulSize size{128, 128, 64};
  std::vector<float> a(size.a_elements() + 1), b(size.b_elements() + 1), c(size.c_elements() + 1);
  lessons::fill_random(a, 3);
  lessons::fill_random(b, 4);
  const std::span<const float> a_view(a.data() + 1, size.a_elements());
  const std::span<const float> b_view(b.data() + 1, size.b_elements());
  std::vector<float> expected(size.c_elements());
  lessons::matmul_reference(a_view, b_view, expected, size);
  const auto& kernels = kernels::emulator_kernels().get<kernels::MatmulKernels>();
  for (MatmulKernel kernel :
       {MatmulKernel::kVectorized, MatmulKernel::kWarptile, MatmulKernel::kPipelined}) {
    SCOPED_TRACE(std::string(lessons::to_string(kernel)));
    const MatmulVariant variant{kernel, 16, {}};
    const LaunchConfig config = lessons::matmul_covering_config(size, variant);
    std::fill(c.begin(), c.end(), -1.0f);
    const Status launched = kernels.block_tiled(config, kernel, a_view.data(), b_view.data(),
                                                c.data() + 1, 128, 128, 64);
    ASSERT_TRUE(launched) << launched.message();
    const auto check =
        lessons::check_matmul(a_view, b_view, {c.data() + 1, size.c_elements()}, expected, size);
    EXPECT_TRUE(check.passed) << check.describe();
    EXPECT_EQ(c[0], -1.0f);  // nothing written before C
  }
}

TEST(MatmulLadderEmulatedErrors, ABlockOtherThanTheRungsIsRefusedWithItsShape) {
  auto device = make_emulator_device();
  const MatmulSize size{40, 40, 40};
  const MatmulVariant warptile{MatmulKernel::kWarptile, 16, {}};
  HostTraceSink sink;
  auto mismatched = trace_matmul(*device, size, warptile, {{1, 1, 1}, {16, 16, 1}}, sink);
  ASSERT_FALSE(mismatched.is_ok());
  EXPECT_EQ(mismatched.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(mismatched.message().find("needs blocks of exactly 256×1×1"), std::string::npos)
      << mismatched.message();
  EXPECT_NE(mismatched.message().find("128×128 tile"), std::string::npos) << mismatched.message();
  const MatmulVariant one_d{MatmulKernel::kRegtile1d, 16, {}};
  EXPECT_EQ(one_d.launch_block(), (Dim3{512, 1, 1}));
  auto wrong = kernels::emulator_kernels().get<kernels::MatmulKernels>().block_tiled(
      {{1, 1, 1}, {256, 1, 1}}, MatmulKernel::kRegtile1d, nullptr, nullptr, nullptr, 1, 1, 1);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.message().find("512×1×1"), std::string::npos) << wrong.message();
}

}  // namespace
}  // namespace tl::compute
