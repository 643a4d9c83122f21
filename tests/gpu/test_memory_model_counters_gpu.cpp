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
  double shared_load_conflicts = 0;
  double shared_store_conflicts = 0;
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
    const bool load = row.kind == memory::AccessKind::kLoad;
    if (row.space == memory::MemorySpace::kShared) {
      (load ? figures.shared_load_conflicts : figures.shared_store_conflicts) +=
          scale * static_cast<double>(row.bank_conflicts());
      continue;
    }
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

// The lesson's counted kernel keyed `key`, or null.
const CountedKernel* find_counted(const std::vector<CountedKernel>& counted,
                                  const std::string& key) {
  for (const CountedKernel& k : counted) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

// The global figures the model and CUPTI share, for one kernel: sectors and requests, loads and
// stores. The hardware's bank-conflict counter is printed beside the model's conflicts but not held
// against them: it also counts the data banks' arbitration with other traffic (L1 fills of global
// loads share the banks), so it varies from run to run (3 354 and 3 367 for one launch of a tree
// whose accesses have none, H200); test_memory_model_ncu_gpu.cpp compares the shared-memory figures
// with Nsight Compute's instruction-level ones instead.
void expect_model_equals_counters(const std::string& what, const ModelFigures& model,
                                  const MemoryInstructionCounters& gpu) {
  std::cout << what << ": model " << model.load_requests << " load requests, " << model.load_sectors
            << " sectors, " << model.store_requests << " store requests, " << model.store_sectors
            << " sectors, bank conflicts " << model.shared_load_conflicts << " (loads) "
            << model.shared_store_conflicts << " (stores); counters " << gpu.global_load_requests
            << ", " << gpu.global_load_sectors << ", " << gpu.global_store_requests << ", "
            << gpu.global_store_sectors << ", hardware bank-conflict counter "
            << gpu.shared_load_bank_conflicts << ", " << gpu.shared_store_bank_conflicts << "\n";
  EXPECT_DOUBLE_EQ(model.load_requests, gpu.global_load_requests) << what;
  EXPECT_DOUBLE_EQ(model.load_sectors, gpu.global_load_sectors) << what;
  EXPECT_DOUBLE_EQ(model.store_requests, gpu.global_store_requests) << what;
  EXPECT_DOUBLE_EQ(model.store_sectors, gpu.global_store_sectors) << what;
}

// Records each of the lesson's memory experiments and holds it against the counted kernel of the
// same rung (its timing row's key is "kernel/" and the experiment's label).
void compare_lesson(compute::Device& device, const std::string& lesson_id,
                    const lessons::ParamValues& values) {
  auto lesson = compute::make_lesson(lesson_id);
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  ASSERT_TRUE((*lesson)->configure(values).is_ok());
  compute::CountingLesson* counting = compute::counting_lesson(**lesson);
  const compute::MemoryLesson* memory = compute::memory_lesson(**lesson);
  ASSERT_TRUE(counting != nullptr && memory != nullptr) << lesson_id;
  auto counted = counting->run_counted(device);
  SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
  const std::string cache =
      (std::filesystem::temp_directory_path() / "threadlab-memory-counters-gpu").string();
  for (const memory::MemoryExperiment& experiment : memory->memory_experiments()) {
    auto recorded = lab::record_lesson_kernel(experiment, cache);
    ASSERT_TRUE(recorded.is_ok()) << experiment.kernel << ": " << recorded.message();
    const CountedKernel* found = find_counted(*counted, "kernel/" + experiment.label);
    ASSERT_NE(found, nullptr) << lesson_id << " counted no kernel/" << experiment.label;
    ASSERT_TRUE(found->counters.memory.measured) << experiment.label;
    expect_model_equals_counters(device.info().name + ", " + lesson_id + " " + experiment.label,
                                 model_figures(*recorded), found->counters.memory);
  }
}

// Lesson 4's first three rungs at 512^3 with 16x16 tiles: x -> row's strided loads, the naive
// kernel's broadcast row of A beside its coalesced row of B, the tiled kernel's tile loads.
TEST_F(MemoryModelCountersGpu, MatmulLoadsEqualTheCounters) {
  compare_lesson(device(), "matmul", {{"m", "512"}, {"n", "512"}, {"k", "512"}, {"tile", "16"}});
}

// Lesson 6's trees and the two rungs after them over 2^20 elements in blocks of 256 (a grid of
// identical blocks: four recorded stand exactly for all of them), their loads of the input.
TEST_F(MemoryModelCountersGpu, ReductionLoadsEqualTheCounters) {
  compare_lesson(device(), "reductions", {{"n", "1048576"}, {"block", "256"}});
}

}  // namespace
}  // namespace tl::testing
