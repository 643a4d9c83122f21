#pragma once
// Each timed kernel against its own ceiling. Most are bounded by the device's measured ceilings
// (core/device_ceilings.hpp: the copy for memory-bound work, cuBLAS SGEMM for FP32 arithmetic);
// a lesson whose kernels have another ceiling says so through OwnCeilings, beside its Lesson
// interface: the matrix-multiply lesson's tensor rungs are bounded by cuBLAS at their own
// precision, timed in the same run.

#include <optional>

#include "compute/lessons/lesson.hpp"
#include "core/device_ceilings.hpp"
#include "core/own_ceiling.hpp"
#include "core/timing/timing_key.hpp"

namespace tl::compute {

class OwnCeilings {
 public:
  virtual ~OwnCeilings() = default;
  // The row of the same report that bounds the row keyed `row`; none where the device's ceilings
  // do.
  [[nodiscard]] virtual std::optional<TimingKey> ceiling_row(const TimingKey& row) const = 0;
};

// `row` of `report` (a run of `lesson`) as a share of its own ceiling: the row the lesson names
// for it (never falling back to FP32 SGEMM where that row was not timed), else, for a device row,
// the device's measured ceilings. None where the ceiling is unknown.
[[nodiscard]] std::optional<OwnCeilingShare> share_of_own_ceiling(const Lesson& lesson,
                                                                  const LessonReport& report,
                                                                  const TimingRow& row,
                                                                  const DeviceCeilings* ceilings);

}  // namespace tl::compute
