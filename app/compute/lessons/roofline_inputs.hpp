#pragma once
// What the roofline view (core/plot/roofline.hpp) plots for one timed run of a lesson: its device
// rows as kernels, each with its share of its own ceiling from share_of_own_ceiling() (the timing
// table's share column: one source for both), the device's measured copy bandwidth as the slope,
// and as flat roofs cuBLAS SGEMM measured on the device and every row the lesson names as another
// kernel's own ceiling (cuBLAS at a tensor precision, timed in the same run).

#include "compute/lessons/lesson.hpp"
#include "core/device_ceilings.hpp"
#include "core/plot/roofline.hpp"

namespace tl::compute {

// A report from the emulator (not `report.on_gpu`) has the host's memcpy as its slope, so named.
// Rows not read against the device's ceilings (against_device_ceilings(): the CPU's, copies over
// PCIe, end to end) are not points; one line of `left_out` says how many there are.
[[nodiscard]] plot::RooflineInputs roofline_inputs(const Lesson& lesson, const LessonReport& report,
                                                   const DeviceCeilings* ceilings);

}  // namespace tl::compute
