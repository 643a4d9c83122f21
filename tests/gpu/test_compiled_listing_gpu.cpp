// The compiled listings the build embedded (lessons/compiled_kernels.hpp: ptxas's resources and
// nvdisasm's SASS of the lessons' kernels) against CUDA's own account of the same kernels on this
// GPU: each timed kernel's registers and static shared memory equal cudaFuncGetAttributes, and the
// SASS of a kernel the GPU runs holds the instructions its source line asks for.

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>

#include "compiled_kernels.hpp"
#include "core/compiled/compiled_listing.hpp"
#include "gpu_test_environment.hpp"
#include "kernels/kernel_inspector.hpp"
#include "kernels/kernel_registry.hpp"

namespace tl {
namespace {

class CompiledListingGpu : public testing::GpuTest {};

std::string device_arch(const DeviceInfo& info) {
  return "sm_" + std::to_string(info.compute_major) + std::to_string(info.compute_minor);
}

// Every timed kernel the GPU registry lists, by the name the Compiled tab's listing gives it
// (kernels::listing_name) and the name it is registered under.
std::map<std::string, std::string> registered_by_listing_name() {
  std::map<std::string, std::string> registered;
  for (const kernels::KernelSetEntry& set : kernels::gpu_kernels().sets()) {
    if (set.symbols == nullptr) continue;
    for (const kernels::KernelSymbol& symbol : set.symbols()) {
      registered.emplace(std::string(kernels::listing_name(symbol)), std::string(symbol.name));
    }
  }
  return registered;
}

// The listing names of the timed kernels `unit` lists.
std::set<std::string> listed_timed_kernels(const compiled_kernels::CompiledUnit& unit) {
  std::set<std::string> listed;
  for (const compiled::ResourceUsage& usage :
       compiled::parse_resource_usage(unit.resources, unit.arch)) {
    const std::string name = compiled::short_name(usage.symbol);
    if (!compiled::is_traced_instance(name)) listed.insert(compiled::timed_kernel_name(name));
  }
  return listed;
}

// No device needed: the registry and the embedded listings agree on every timed kernel's name, so
// the comparison below meets each one. A kernel registered under a name the listing does not give
// its symbol (a template over a type, registered under a name of its own) must carry its listing
// name (kernels::symbol's third argument).
TEST(CompiledListingNames, EveryRegisteredTimedKernelIsInTheListingByItsListingName) {
  if (compiled_kernels::units().empty()) {
    GTEST_SKIP() << "no compiled listings in this build: " << compiled_kernels::unavailable();
  }
  // Every architecture's units together: a kernel compiled for one only (sm_90a's wgmma rungs) is
  // still registered, and its name is the same on each.
  std::set<std::string> listed;
  for (const compiled_kernels::CompiledUnit& unit : compiled_kernels::units()) {
    listed.merge(listed_timed_kernels(unit));
  }
  const auto registered = registered_by_listing_name();
  ASSERT_FALSE(registered.empty());
  for (const auto& [listing, name] : registered) {
    if (listed.contains(listing)) continue;
    // What the listing has of the same template, for the message.
    const std::string base = listing.substr(0, listing.find('<'));
    std::string candidates;
    for (const std::string& l : listed) {
      if (l.substr(0, l.find('<')) == base) candidates += "\n  " + l;
    }
    ADD_FAILURE() << "the registered kernel " << name << " is not in the listing as " << listing
                  << "; the listing has"
                  << (candidates.empty() ? " no instance of " + base : candidates);
  }
}

TEST_F(CompiledListingGpu, RegistersAndSharedMemoryEqualCudasForEveryTimedKernel) {
  if (compiled_kernels::units().empty()) {
    GTEST_SKIP() << "no compiled listings in this build: " << compiled_kernels::unavailable();
  }
  const std::string arch = device_arch(device().info());
  const auto registered = registered_by_listing_name();
  std::set<std::string> compared;
  for (const compiled_kernels::CompiledUnit& unit : compiled_kernels::units()) {
    // sm_90a's units too: the GPU runs them where it is a 9.0.
    if (unit.arch != arch && unit.arch != arch + "a") continue;
    for (const compiled::ResourceUsage& usage :
         compiled::parse_resource_usage(unit.resources, unit.arch)) {
      const std::string listing = compiled::timed_kernel_name(compiled::short_name(usage.symbol));
      const auto found = registered.find(listing);
      if (found == registered.end()) continue;  // a traced twin or a kernel the lessons do not time
      const std::string& name = found->second;
      auto cuda = kernels::gpu_kernel_resources(name);
      ASSERT_TRUE(cuda.is_ok()) << name << ": " << cuda.message();
      EXPECT_EQ(static_cast<std::uint32_t>(usage.registers), cuda->registers_per_thread) << name;
      EXPECT_EQ(static_cast<std::uint64_t>(usage.shared_bytes), cuda->static_shared_bytes) << name;
      compared.insert(listing);
    }
  }
  std::cout << "compared " << compared.size() << " kernels' registers and shared memory on " << arch
            << " with cudaFuncGetAttributes\n";
  // Every registered timed kernel this GPU runs, none skipped because the listing names it
  // otherwise (one without code for this GPU, sm_90a's on another, CUDA has no attributes of).
  for (const auto& [listing, name] : registered) {
    if (compared.contains(listing) || !kernels::gpu_kernel_resources(name)) continue;
    ADD_FAILURE() << name << " (in the listing as " << listing << ") was not compared on " << arch;
  }
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
