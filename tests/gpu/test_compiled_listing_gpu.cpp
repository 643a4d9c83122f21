// The compiled listings the build embedded (lessons/compiled_kernels.hpp: ptxas's resources and
// nvdisasm's SASS of the lessons' kernels) against CUDA's own account of the same kernels on this
// GPU: each timed kernel's registers and static shared memory equal cudaFuncGetAttributes, and the
// SASS of a kernel the GPU runs holds the instructions its source line asks for.

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "compiled_kernels.hpp"
#include "core/compiled/compiled_listing.hpp"
#include "gpu_test_environment.hpp"
#include "kernels/kernel_inspector.hpp"

namespace tl {
namespace {

class CompiledListingGpu : public testing::GpuTest {};

std::string device_arch(const DeviceInfo& info) {
  return "sm_" + std::to_string(info.compute_major) + std::to_string(info.compute_minor);
}

TEST_F(CompiledListingGpu, RegistersAndSharedMemoryEqualCudasForEveryTimedKernel) {
  if (compiled_kernels::units().empty()) {
    GTEST_SKIP() << "no compiled listings in this build: " << compiled_kernels::unavailable();
  }
  const std::string arch = device_arch(device().info());
  int compared = 0;
  for (const compiled_kernels::CompiledUnit& unit : compiled_kernels::units()) {
    // sm_90a's units too: the GPU runs them where it is a 9.0.
    if (unit.arch != arch && unit.arch != arch + "a") continue;
    for (const compiled::ResourceUsage& usage :
         compiled::parse_resource_usage(unit.resources, unit.arch)) {
      const std::string name = compiled::timed_kernel_name(compiled::short_name(usage.symbol));
      auto cuda = kernels::gpu_kernel_resources(name);
      if (!cuda) continue;  // a traced twin or a kernel the lessons do not time
      EXPECT_EQ(static_cast<std::uint32_t>(usage.registers), cuda->registers_per_thread) << name;
      EXPECT_EQ(static_cast<std::uint64_t>(usage.shared_bytes), cuda->static_shared_bytes) << name;
      ++compared;
    }
  }
  std::cout << "compared " << compared << " kernels' registers and shared memory on " << arch
            << " with cudaFuncGetAttributes\n";
  EXPECT_GE(compared, 10) << "the listings name the timed kernels as the inspector does";
}

TEST_F(CompiledListingGpu, TheMatrixAddsLoadLineIsTwoGlobalLoadsAndAStore) {
  if (compiled_kernels::units().empty()) {
    GTEST_SKIP() << "no compiled listings in this build: " << compiled_kernels::unavailable();
  }
  const std::string arch = device_arch(device().info());
  const compiled_kernels::CompiledUnit* unit = nullptr;
  for (const compiled_kernels::CompiledUnit& u : compiled_kernels::units()) {
    if (u.unit == "matrix_add_gpu" && u.arch == arch) unit = &u;
  }
  ASSERT_NE(unit, nullptr) << "no listing of lesson 3's kernels for " << arch;
  const compiled::SassListing listing = compiled::parse_sass(unit->sass);
  const compiled::SassFunction* row = nullptr;
  for (const compiled::SassFunction& f : listing.functions) {
    if (compiled::short_name(f.symbol) == "tl::gpu::matrix_add_x_to_row<tl::Untraced>") row = &f;
  }
  ASSERT_NE(row, nullptr);
  // `c[i] = a[i] + b[i];` in matrix_add.cuh (the line of x → row that `run --memory-table` names).
  int line = 0;
  for (const compiled::SassInstruction& i : row->instructions) {
    if (i.kind == compiled::InstructionKind::kGlobalStore) line = i.line;
  }
  ASSERT_GT(line, 0);
  const auto made = compiled::instructions_of_line(listing, *row, "matrix_add.cuh", line);
  int loads = 0;
  int stores = 0;
  for (const std::size_t i : made) {
    loads += row->instructions[i].kind == compiled::InstructionKind::kGlobalLoad;
    stores += row->instructions[i].kind == compiled::InstructionKind::kGlobalStore;
  }
  EXPECT_EQ(loads, 2);
  EXPECT_EQ(stores, 1);
}

}  // namespace
}  // namespace tl
