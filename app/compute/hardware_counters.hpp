#pragma once
// Hardware counters over one launched kernel (core/kernel_counters.hpp), on whichever device runs
// it, and the lessons that count the kernels they compare.

#include <functional>
#include <vector>

#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/kernel_counters.hpp"
#include "core/result.hpp"

namespace tl::compute {

// Reads the counters over the one kernel `launch_once` launches on `device`: on a GPU through
// CUPTI (compute/cuda/cupti_counters.hpp), which replays the kernel once per pass and may call
// `launch_once` again, so these launches must never be timed; the kernel must give the same result
// when run again. Where counters cannot be read (the emulator, no CUPTI, no permission), the error
// says why.
Result<KernelCounters> count_kernel(Device& device, const std::function<Status()>& launch_once);

// A lesson that compares kernels and counts them (2d-blocks, matmul, reductions), beside its Lesson
// interface: the window and `threadlab run --counters` ask for it with counting_lesson().
class CountingLesson {
 public:
  virtual ~CountingLesson() = default;
  // Each compared kernel at the current settings, one count_kernel each, keyed as its timing
  // row; apart from the timed runs. An error is the reason counters cannot be read here.
  virtual Result<std::vector<CountedKernel>> run_counted(Device& device) = 0;
};
[[nodiscard]] inline CountingLesson* counting_lesson(Lesson& lesson) {
  return dynamic_cast<CountingLesson*>(&lesson);
}
[[nodiscard]] inline const CountingLesson* counting_lesson(const Lesson& lesson) {
  return dynamic_cast<const CountingLesson*>(&lesson);
}

}  // namespace tl::compute
