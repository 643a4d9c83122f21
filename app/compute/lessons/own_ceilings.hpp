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

// Whether `row` is read against the device's measured ceilings: work on the GPU itself, or, in a
// report from the emulator (where no row is on a GPU), an emulated kernel (one kernel, or one step
// of a chain), read against the emulator's own measured ceiling, the host's memcpy.
[[nodiscard]] bool against_device_ceilings(const LessonReport& report, const TimingRow& row);

// The name of the emulator's copy ceiling, as a share's `ceiling` gives it.
inline constexpr const char* kEmulatorCopyCeiling = "host memcpy (emulator)";

// `row` of `report` (a run of `lesson`) as a share of its own ceiling: the row the lesson names
// for it (never falling back to FP32 SGEMM where that row was not timed), else, for a row
// against_device_ceilings(), the device's measured ceilings (on the emulator: the host's memcpy,
// so named). None where the ceiling is unknown.
[[nodiscard]] std::optional<OwnCeilingShare> share_of_own_ceiling(const Lesson& lesson,
                                                                  const LessonReport& report,
                                                                  const TimingRow& row,
                                                                  const DeviceCeilings* ceilings);

}  // namespace tl::compute
