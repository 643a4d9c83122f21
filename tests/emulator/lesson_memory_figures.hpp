#pragma once
// The memory figures of a lesson's own kernels (lab/lesson_memory.hpp) at the settings a test
// gives, for the lessons' tests/emulator/test_*_memory.cpp: recorded through the lesson's own
// memory_experiments(), so the tests hold what `threadlab run --memory-table` prints.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "lab/lesson_memory.hpp"

namespace tl::testing {

// One cache for every run of the suite: the recording builds are keyed by their inputs' hash.
inline std::string lesson_memory_cache() {
  return (std::filesystem::temp_directory_path() / "threadlab-lesson-memory-tests").string();
}

inline std::vector<lab::LessonKernelMemory> record_lesson(const std::string& id,
                                                          const lessons::ParamValues& values) {
  std::vector<lab::LessonKernelMemory> recorded;
  auto lesson = compute::make_lesson(id);
  EXPECT_TRUE(lesson.is_ok()) << lesson.message();
  if (!lesson.is_ok()) return recorded;
  const Status configured = (*lesson)->configure(values);
  EXPECT_TRUE(configured.is_ok()) << configured.message();
  const compute::MemoryLesson* memory = compute::memory_lesson(**lesson);
  EXPECT_NE(memory, nullptr) << id << " declares no memory experiments";
  if (memory == nullptr) return recorded;
  for (const memory::MemoryExperiment& e : memory->memory_experiments()) {
    auto kernel = lab::record_lesson_kernel(e, lesson_memory_cache());
    EXPECT_TRUE(kernel.is_ok()) << e.kernel << ": " << kernel.message();
    if (kernel.is_ok()) recorded.push_back(std::move(*kernel));
  }
  return recorded;
}

inline const lab::LessonKernelMemory* kernel_named(
    const std::vector<lab::LessonKernelMemory>& kernels, const std::string& name) {
  for (const lab::LessonKernelMemory& k : kernels) {
    if (k.kernel == name) return &k;
  }
  ADD_FAILURE() << "no kernel " << name << " was recorded";
  return nullptr;
}

// The row of `kernel` whose source line contains `text`, in `space`, of `kind`.
inline const memory::LineTotals* row_of(const lab::LessonKernelMemory& kernel,
                                        const std::string& text, memory::MemorySpace space,
                                        memory::AccessKind kind) {
  for (std::size_t i = 0; i < kernel.table.rows.size(); ++i) {
    const memory::LineTotals& r = kernel.table.rows[i];
    if (kernel.line_texts[i].find(text) != std::string::npos && r.space == space &&
        r.kind == kind) {
      return &r;
    }
  }
  ADD_FAILURE() << kernel.kernel << " has no row for \"" << text << "\"";
  return nullptr;
}

// Sectors per request of the global loads from the array `name` alone (two arrays read on one
// line share its row).
struct ArrayLoads {
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t ideal_sectors = 0;
};
inline ArrayLoads loads_from(const lab::LessonKernelMemory& kernel, const std::string& name) {
  ArrayLoads loads;
  for (const memory::WarpRequest& r : kernel.requests) {
    if (r.space != memory::MemorySpace::kGlobal || r.kind != memory::AccessKind::kLoad) continue;
    const lab::LessonKernelMemory::Array* array = kernel.array_at(r.lanes.front().address);
    if (array == nullptr || array->name != name) continue;
    const memory::GlobalRequestCost cost = memory::global_request_cost(r.lanes);
    ++loads.requests;
    loads.sectors += cost.sectors;
    loads.ideal_sectors += cost.ideal_sectors;
  }
  return loads;
}

}  // namespace tl::testing
