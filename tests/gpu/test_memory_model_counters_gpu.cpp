// The memory model (core/memory) against the GPU's own counters (#33 item 5): for the lesson
// kernels where the two must agree exactly, the sectors per request the emulator's recording
// predicts equal what CUPTI counts (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum over
// l1tex__t_requests_...), per kernel. Both sides run the same lesson at the same settings: the
// recording through the lesson's memory_experiments() (lab/lesson_memory.hpp), the counters
// through its run_counted(). Where counters are not allowed here the test skips and says why.

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "compute/lessons/run_support.hpp"
#include "counters_test_support.hpp"
#include "gpu_test_environment.hpp"
#include "lab/lesson_memory.hpp"

namespace tl::testing {
namespace {

struct ModelFigures {
  double load_requests = 0;
  double load_sectors = 0;
  double store_requests = 0;
  double store_sectors = 0;
};

// The recorded kernel's global traffic over every line, scaled from the recorded blocks to the
// grid (the table holds the recorded blocks' counts and says how many of the grid's they are).
ModelFigures model_figures(const lab::LessonKernelMemory& kernel) {
  ModelFigures figures;
  const double scale = kernel.table.recorded_blocks > 0
                           ? static_cast<double>(kernel.table.grid_blocks) /
                                 static_cast<double>(kernel.table.recorded_blocks)
                           : 0.0;
  for (const memory::LineTotals& row : kernel.table.rows) {
    if (row.space != memory::MemorySpace::kGlobal) continue;
    const bool load = row.kind == memory::AccessKind::kLoad;
    (load ? figures.load_requests : figures.store_requests) +=
        scale * static_cast<double>(row.requests);
    (load ? figures.load_sectors : figures.store_sectors) +=
        scale * static_cast<double>(row.sectors);
  }
  return figures;
}

class MemoryModelCountersGpu : public GpuTest {};

// Lesson 3's two mappings (blocks of 32 × 8 and of 16 × 16, a matrix no block size leaves ragged):
// x → column 4 sectors per request, x → row 32 (16 with 16-wide blocks), loads and stores.
TEST_F(MemoryModelCountersGpu, MatrixAddSectorsPerRequestEqualTheCounters) {
  for (const char* block : {"32,8", "16,16"}) {
    auto lesson = compute::make_lesson("2d-blocks");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    ASSERT_TRUE(
        (*lesson)->configure({{"rows", "1024"}, {"cols", "1024"}, {"block", block}}).is_ok());
    compute::CountingLesson* counting = compute::counting_lesson(**lesson);
    const compute::MemoryLesson* memory = compute::memory_lesson(**lesson);
    ASSERT_TRUE(counting != nullptr && memory != nullptr);
    auto counted = counting->run_counted(device());
    SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
    const std::vector<memory::MemoryExperiment> experiments = memory->memory_experiments();
    ASSERT_EQ(experiments.size(), 2u);
    const std::vector<std::string> keys = {"kernel/x-to-col", "kernel/x-to-row"};
    const std::string cache =
        (std::filesystem::temp_directory_path() / "threadlab-memory-counters-gpu").string();
    for (std::size_t i = 0; i < experiments.size(); ++i) {
      auto recorded = lab::record_lesson_kernel(experiments[i], cache);
      ASSERT_TRUE(recorded.is_ok()) << experiments[i].kernel << ": " << recorded.message();
      const ModelFigures model = model_figures(*recorded);
      const CountedKernel* found = nullptr;
      for (const CountedKernel& k : *counted) {
        if (k.key == keys[i]) found = &k;
      }
      ASSERT_NE(found, nullptr) << keys[i] << " was not counted";
      const MemoryInstructionCounters& gpu = found->counters.memory;
      ASSERT_TRUE(gpu.measured) << "CUPTI gave no memory-instruction counters for " << keys[i];
      std::cout << device().info().name << ", blocks " << block << ", " << experiments[i].label
                << ": model " << model.load_sectors / model.load_requests << " (loads) and "
                << model.store_sectors / model.store_requests << " (stores) sectors per request, "
                << "counters " << gpu.load_sectors_per_request() << " and "
                << gpu.store_sectors_per_request() << " (" << gpu.global_load_requests
                << " load requests counted, " << model.load_requests << " in the model)\n";
      EXPECT_DOUBLE_EQ(model.load_sectors / model.load_requests, gpu.load_sectors_per_request())
          << keys[i] << " blocks " << block;
      EXPECT_DOUBLE_EQ(model.store_sectors / model.store_requests, gpu.store_sectors_per_request())
          << keys[i] << " blocks " << block;
      // The model's requests, scaled from four recorded blocks: on a grid of identical blocks
      // they are the grid's own, warp for warp.
      EXPECT_DOUBLE_EQ(model.load_requests, gpu.global_load_requests) << keys[i];
      EXPECT_DOUBLE_EQ(model.store_requests, gpu.global_store_requests) << keys[i];
    }
  }
}

}  // namespace
}  // namespace tl::testing
