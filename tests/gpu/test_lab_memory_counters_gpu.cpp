// The memory model against the GPU's counters for Lab kernels (#33 item 5): the transpose
// exercises' solutions, the tiled one with its tile unpadded, and with a swizzle
// (memory_comparison_kernels.hpp). The model's side is what the Lab shows a learner (`lab check
// --memory`: the kernel recorded in a worker on the emulator, here every block of the example
// case); the GPU's side is the same source compiled by NVRTC, as the Lab's GPU path compiles it,
// launched here on the same case and counted with CUPTI. Global loads and stores, which CUPTI
// counts exactly; the shared-memory figures are held against Nsight Compute's instruction-level
// counts (test_memory_model_ncu_gpu.cpp), since the hardware's bank-conflict counter also counts
// the data banks' arbitration with other traffic and varies from run to run.

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "compute/hardware_counters.hpp"
#include "counters_test_support.hpp"
#include "gpu_test_environment.hpp"
#include "lab_kernel_launcher.hpp"
#include "memory_comparison_kernels.hpp"

namespace tl::testing {
namespace {

struct GlobalFigures {
  double load_requests = 0;
  double load_sectors = 0;
  double store_requests = 0;
  double store_sectors = 0;
};

GlobalFigures global_figures(const memory::MemoryTable& table) {
  GlobalFigures f;
  for (const memory::LineTotals& row : table.rows) {
    if (row.space != memory::MemorySpace::kGlobal) continue;
    const bool load = row.kind == memory::AccessKind::kLoad;
    (load ? f.load_requests : f.store_requests) += static_cast<double>(row.requests);
    (load ? f.load_sectors : f.store_sectors) += static_cast<double>(row.sectors);
  }
  return f;
}

class LabMemoryCountersGpu : public GpuTest {};

TEST_F(LabMemoryCountersGpu, TransposeGlobalTrafficEqualsTheCounters) {
  const std::vector<LabComparisonKernel> kernels = lab_comparison_kernels();
  ASSERT_EQ(kernels.size(), 4u) << "the transpose exercises or the padded tile are missing";
  for (const LabComparisonKernel& kernel : kernels) {
    const lab::Exercise* exercise = lab::find_exercise(kernel.exercise_id);
    ASSERT_NE(exercise, nullptr) << kernel.exercise_id;
    const lab::CheckCase example = comparison_case(*exercise);
    auto launcher = LabKernelLauncher::make(device(), *exercise, kernel.source, example);
    ASSERT_TRUE(launcher.is_ok()) << kernel.label << ": " << launcher.message();
    auto counted = compute::count_kernel(device(), [&] { return (*launcher)->launch(); });
    SKIP_OR_FAIL_WITHOUT_COUNTERS(counted);
    const MemoryInstructionCounters& gpu = counted->memory;
    ASSERT_TRUE(gpu.measured) << kernel.label;
    auto table = record_lab_kernel(*exercise, kernel.source);
    ASSERT_TRUE(table.is_ok()) << kernel.label << ": " << table.message();
    const GlobalFigures model = global_figures(*table);
    std::cout << device().info().name << ", " << kernel.label << " (" << example.label
              << "): model " << model.load_requests << " load requests, " << model.load_sectors
              << " sectors, " << model.store_requests << " store requests, " << model.store_sectors
              << " sectors; counters " << gpu.global_load_requests << ", "
              << gpu.global_load_sectors << ", " << gpu.global_store_requests << ", "
              << gpu.global_store_sectors
              << " (hardware bank-conflict counter: " << gpu.shared_load_bank_conflicts
              << " loads, " << gpu.shared_store_bank_conflicts << " stores)\n";
    EXPECT_DOUBLE_EQ(model.load_requests, gpu.global_load_requests) << kernel.label;
    EXPECT_DOUBLE_EQ(model.load_sectors, gpu.global_load_sectors) << kernel.label;
    EXPECT_DOUBLE_EQ(model.store_requests, gpu.global_store_requests) << kernel.label;
    EXPECT_DOUBLE_EQ(model.store_sectors, gpu.global_store_sectors) << kernel.label;
  }
}

}  // namespace
}  // namespace tl::testing
