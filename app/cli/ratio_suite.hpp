#pragma once
// What the `bench` suites that compare kernels (--suite ratios, --suite perf) share: running a
// lesson once for its timing report, finding a row in it, and the measurements both suites print.

#include <cstdint>
#include <functional>
#include <ostream>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/device_ceilings.hpp"
#include "core/lessons/lesson_params.hpp"
#include "ratio_table.hpp"

namespace tl::cli {

// The frame both suites run in: --format and --repeats checked, the backend chosen, the device's
// ceilings measured, then `measure` fills the rows, which are printed as table, CSV or JSON.
using SuiteMeasure = std::function<Status(compute::Device& device, const DeviceCeilings& ceilings,
                                          std::vector<RatioRow>& rows)>;
int run_ratio_suite(const BenchOptions& options, std::ostream& out, std::ostream& err,
                    const SuiteMeasure& measure);

// One timed run of `lesson_id` with `values`, CPU references off; a failed check is an error.
Result<compute::LessonReport> run_lesson_once(compute::Device& device, std::string_view lesson_id,
                                              const lessons::ParamValues& values, int repeats);

// The first timed row whose name `matches`, or null.
const compute::TimingRow* find_timed_row(const compute::LessonReport& report,
                                         const std::function<bool(std::string_view)>& matches);

[[nodiscard]] bool contains(std::string_view text, std::string_view part);

// `work` (bytes or flops) per second at the row's median time.
[[nodiscard]] double per_second(double work, const compute::TimingRow& row);

// The vector-add kernel at n elements against the device's copy (a GPU) or host memcpy.
Result<RatioRow> vector_add_ratio(compute::Device& device, std::uint64_t n,
                                  const DeviceCeilings& ceilings, int repeats);

// One traced frame of 2^24 elements (2^20 on the emulator) delivered to OpenGL by interop against
// the copy path. Needs a GL context (EGL here) on the CUDA GPU; the row says why when absent.
RatioRow trace_delivery_ratio(compute::Device& device, int repeats);

}  // namespace tl::cli
