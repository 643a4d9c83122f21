#pragma once
// A lesson whose own kernels' memory accesses can be recorded on the emulator, beside its Lesson
// interface: `threadlab run --memory-table` (and the Memory tab) ask for it with memory_lesson().
// The lesson only says what to launch (core/memory/memory_experiment.hpp); lab/lesson_memory.hpp
// builds and records it.

#include <vector>

#include "compute/lessons/lesson.hpp"
#include "core/memory/memory_experiment.hpp"

namespace tl::compute {

class MemoryLesson {
 public:
  virtual ~MemoryLesson() = default;
  // The kernels the lesson compares, at the current settings, in the order its timing rows
  // name them.
  [[nodiscard]] virtual std::vector<memory::MemoryExperiment> memory_experiments() const = 0;
};
[[nodiscard]] inline const MemoryLesson* memory_lesson(const Lesson& lesson) {
  return dynamic_cast<const MemoryLesson*>(&lesson);
}

}  // namespace tl::compute
