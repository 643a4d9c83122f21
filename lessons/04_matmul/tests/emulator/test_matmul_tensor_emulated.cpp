// Lesson 4's tensor-core rungs on the CPU emulator: greyed, with the reason, never run as
// something they are not. The selected rung is refused by name; beside another kernel their rows
// stay in the table untimed, each with a note, and the Tensor fragments tab (drawn from the
// documented layout) needs no kernel at all.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::compute {
namespace {

using lessons::MatmulKernel;

TEST(MatmulTensorEmulated, TheKernelTableRefusesWithTheReason) {
  const kernels::MatmulKernels& table = kernels::emulator_kernels().get<kernels::MatmulKernels>();
  const Status refused = table.tensor({{1, 1, 1}, {128, 1, 1}}, MatmulKernel::kMmaFp16, nullptr,
                                      nullptr, nullptr, 16, 16, 16, nullptr);
  EXPECT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("no CPU emulation"), std::string::npos) << refused.message();
  // A wrong block is still named first, as on the GPU.
  const Status wrong_block = table.tensor({{1, 1, 1}, {256, 1, 1}}, MatmulKernel::kWmmaFp16,
                                          nullptr, nullptr, nullptr, 16, 16, 16, nullptr);
  EXPECT_NE(wrong_block.message().find("exactly 128"), std::string::npos) << wrong_block.message();
  EXPECT_FALSE(table.tensor_layout_probe(nullptr, nullptr, nullptr).is_ok());
}

TEST(MatmulTensorEmulated, TheRunnerRefusesATensorRungByName) {
  auto device = make_emulator_device();
  MatmulRequest request;
  request.size = {37, 53, 29};
  request.variants = {{MatmulKernel::kWmmaBf16, 16, {}}};
  request.time_cpu = false;
  auto report = run_matmul(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("wmma-bf16"), std::string::npos) << report.message();
  EXPECT_NE(report.message().find("tensor cores"), std::string::npos) << report.message();
}

TEST(MatmulTensorEmulated, BesideAnotherKernelTheirRowsStayUntimedWithANote) {
  auto lesson = make_lesson("matmul");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  (*lesson)->set_repeats(1);
  ASSERT_TRUE(
      (*lesson)->configure({{"m", "40"}, {"n", "24"}, {"k", "16"}, {"kernel", "naive"}}).is_ok());
  auto device = make_emulator_device();
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (MatmulKernel kernel : lessons::kMatmulTensorRungs) {
    const std::string rung(lessons::to_string(kernel));
    const auto row = std::find_if(report->rows.begin(), report->rows.end(), [&](const auto& r) {
      return r.key == TimingKey{TimingRole::kKernel, rung};
    });
    ASSERT_NE(row, report->rows.end()) << rung;
    EXPECT_TRUE(row->stats.empty()) << rung;
    const bool noted = std::any_of(report->notes.begin(), report->notes.end(), [&](const auto& n) {
      return n.find(rung) != std::string::npos && n.find("tensor cores") != std::string::npos;
    });
    EXPECT_TRUE(noted) << rung;
  }
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
}

}  // namespace
}  // namespace tl::compute
