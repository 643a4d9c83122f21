// The kernel registries (kernels/kernel_registry.hpp): generated from the lessons' lines in
// lessons/CMakeLists.txt, one entry per declared set in each executor, found by table type.

#include "kernels/kernel_registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/09_training/kernels/mlp_kernels.hpp"

namespace tl::kernels {
namespace {

// A table type no lesson declares.
struct UndeclaredKernels {
  Status (*nothing)() = nullptr;
};

void expect_well_formed(const KernelRegistry& registry) {
  SCOPED_TRACE(std::string(registry.executor()));
  ASSERT_FALSE(registry.sets().empty());
  std::set<std::string_view> names, identities_seen;
  std::set<const void*> identities, tables;
  for (const KernelSetEntry& entry : registry.sets()) {
    SCOPED_TRACE(std::string(entry.set));
    EXPECT_TRUE(names.insert(entry.set).second) << "two sets share a name";
    EXPECT_NE(entry.identity, nullptr);
    EXPECT_NE(entry.launch_functions, nullptr);
    EXPECT_TRUE(identities.insert(entry.identity).second) << "two sets share a table type";
    EXPECT_TRUE(tables.insert(entry.launch_functions).second);
    // The owning lesson is a registered lesson's folder.
    bool owned = false;
    for (const compute::LessonModule* module : compute::registered_lessons()) {
      if (module->info.folder == entry.lesson) owned = true;
    }
    EXPECT_TRUE(owned) << "lesson " << entry.lesson << " is not registered";
  }
}

TEST(KernelRegistry, TheEmulatorListsEveryDeclaredSetOnce) {
  expect_well_formed(emulator_kernels());
}

TEST(KernelRegistry, ASetIsFoundByItsTableType) {
  const KernelRegistry& registry = emulator_kernels();
  const VectorAddKernels* vector_add = registry.find<VectorAddKernels>();
  const MatmulKernels* matmul = registry.find<MatmulKernels>();
  ASSERT_NE(vector_add, nullptr);
  ASSERT_NE(matmul, nullptr);
  EXPECT_NE(static_cast<const void*>(vector_add), static_cast<const void*>(matmul));
  EXPECT_EQ(&registry.get<VectorAddKernels>(), vector_add);
  EXPECT_NE(vector_add->add, nullptr);
  EXPECT_NE(registry.get<MlpKernels>().gemm, nullptr);
  // The entry for the type names the set and its lesson.
  bool named = false;
  for (const KernelSetEntry& entry : registry.sets()) {
    if (entry.launch_functions == vector_add) {
      EXPECT_EQ(entry.set, "vector_add");
      EXPECT_EQ(entry.lesson, "01_vector_add");
      named = true;
    }
  }
  EXPECT_TRUE(named);
}

TEST(KernelRegistry, ATypeNoLessonDeclaresIsNotFound) {
  EXPECT_EQ(emulator_kernels().find<UndeclaredKernels>(), nullptr);
  // The emulator may have worker threads: the death test re-executes the binary rather than fork.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // get<> stops the program with the reason rather than hand out a null table.
  EXPECT_DEATH((void)emulator_kernels().get<UndeclaredKernels>(), "does not list");
}

// The emulator's sets run on host pointers: they have no GPU symbols for the occupancy view.
TEST(KernelRegistry, OnlyTheGpuRegistryCarriesKernelSymbols) {
  for (const KernelSetEntry& entry : emulator_kernels().sets()) {
    EXPECT_EQ(entry.symbols, nullptr) << entry.set;
  }
}

#if defined(THREADLAB_HAVE_CUDA)
// Both executors list the same sets in the same order, each GPU set with its timed kernels' symbols
// (reading the tables needs no device: they are host-side function pointers).
TEST(KernelRegistry, TheGpuListsTheSameSetsWithTheirSymbols) {
  expect_well_formed(gpu_kernels());
  const auto emulated = emulator_kernels().sets();
  const auto gpu = gpu_kernels().sets();
  ASSERT_EQ(emulated.size(), gpu.size());
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    EXPECT_EQ(emulated[i].set, gpu[i].set);
    EXPECT_EQ(emulated[i].identity, gpu[i].identity) << gpu[i].set;
    EXPECT_NE(emulated[i].launch_functions, gpu[i].launch_functions) << gpu[i].set;
    ASSERT_NE(gpu[i].symbols, nullptr) << gpu[i].set;
    EXPECT_FALSE(gpu[i].symbols().empty()) << gpu[i].set;
  }
}
#endif

}  // namespace
}  // namespace tl::kernels
