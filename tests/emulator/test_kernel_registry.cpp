// The kernel registries (kernels/kernel_registry.hpp): generated from the lessons' lines in
// lessons/CMakeLists.txt, one entry per declared set in each executor, found by table type.

#include "kernels/kernel_registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compute/lessons/lesson_registry.hpp"

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

// Two table types of this test's own, registered as an executor file registers a lesson's (no test
// outside a lesson's folder names that lesson's set).
struct FirstKernels {
  Status (*run)() = nullptr;
};
struct SecondKernels {
  Status (*run)() = nullptr;
  int extra = 0;
};
Status ran_first() {
  return Status::ok();
}
Status ran_second() {
  return invalid_argument("second");
}

TEST(KernelRegistry, ASetIsFoundByItsTableType) {
  static const FirstKernels first{&ran_first};
  static const SecondKernels second{&ran_second, 7};
  static const KernelSetEntry entries[] = {register_set("first", "01_first", first),
                                           register_set("second", "02_second", second)};
  const KernelRegistry registry("test", entries);
  ASSERT_EQ(registry.find<FirstKernels>(), &first);
  ASSERT_EQ(registry.find<SecondKernels>(), &second);
  EXPECT_EQ(&registry.get<SecondKernels>(), &second);
  EXPECT_TRUE(registry.get<FirstKernels>().run().is_ok());
  EXPECT_EQ(registry.get<SecondKernels>().extra, 7);
  EXPECT_EQ(registry.find<UndeclaredKernels>(), nullptr);
  // The entry for the type names the set and its lesson.
  EXPECT_EQ(registry.sets()[1].set, "second");
  EXPECT_EQ(registry.sets()[1].lesson, "02_second");
  EXPECT_EQ(registry.sets()[1].launch_functions, &second);
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
