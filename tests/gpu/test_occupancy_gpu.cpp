// The occupancy model against CUDA's own answer, for every kernel the lessons time and every block
// size it can launch with; and the kernels each lesson names exist.

#include <gtest/gtest.h>

#include <algorithm>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/occupancy.hpp"
#include "gpu_test_environment.hpp"
#include "kernels/kernel_inspector.hpp"

namespace tl {
namespace {

class OccupancyGpu : public testing::GpuTest {};

TEST_F(OccupancyGpu, TheModelAgreesWithCudaForEveryKernelAndBlockSize) {
  ASSERT_TRUE(can_compute_occupancy(device().info()));
  const auto names = kernels::gpu_kernel_names();
  ASSERT_GE(names.size(), 10u);
  int compared = 0;
  for (const std::string& name : names) {
    auto resources = device().kernel_resources(name);
    ASSERT_TRUE(resources.is_ok()) << resources.message();
    EXPECT_GT(resources->registers_per_thread, 0u) << name;
    for (const Occupancy& modelled : occupancy_by_block_size(device().info(), *resources)) {
      auto cuda = device().active_blocks_per_sm(name, modelled.block_threads, 0);
      ASSERT_TRUE(cuda.is_ok()) << cuda.message();
      EXPECT_EQ(modelled.active_blocks, *cuda)
          << name << " at " << modelled.block_threads
          << " threads: " << resources->registers_per_thread << " registers, "
          << resources->static_shared_bytes << " + " << resources->dynamic_shared_bytes
          << " B shared; model limited by " << to_string(modelled.limit);
      ++compared;
    }
  }
  std::cout << "compared " << compared << " (kernel, block size) pairs with CUDA\n";
}

TEST_F(OccupancyGpu, EveryLessonNamesAKernelThatExists) {
  const auto names = kernels::gpu_kernel_names();
  for (const lessons::LessonInfo& info : lessons::catalog()) {
    auto lesson = compute::make_lesson(info.id);
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    const auto kernel = (*lesson)->occupancy_kernel();
    ASSERT_TRUE(kernel.has_value()) << info.id;
    EXPECT_NE(std::find(names.begin(), names.end(), *kernel), names.end()) << *kernel;
    EXPECT_TRUE(device().kernel_resources(*kernel).is_ok()) << *kernel;
  }
}

TEST_F(OccupancyGpu, AnUnknownKernelIsAClearError) {
  auto missing = device().kernel_resources("no_such_kernel");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.message().find("no_such_kernel"), std::string::npos);
}

}  // namespace
}  // namespace tl
