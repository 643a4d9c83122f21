#pragma once
// What the `bench` suites that compare kernels (--suite ratios, --suite perf) share: the frame they
// run in, the lessons' own comparisons (each lesson module's benchmark hook) and the measurements
// both suites print.

#include <cstdint>
#include <functional>
#include <ostream>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "compute/device.hpp"
#include "compute/lessons/lesson_benchmark.hpp"
#include "core/device_ceilings.hpp"
#include "ratio_table.hpp"

namespace tl::cli {

// The frame both suites run in: --format and --repeats checked, the backend chosen, the device's
// ceilings measured, then `measure` fills the rows, which are printed as table, CSV or JSON.
using SuiteMeasure = std::function<Status(compute::Device& device, const DeviceCeilings& ceilings,
                                          std::vector<RatioRow>& rows)>;
int run_ratio_suite(const BenchOptions& options, std::ostream& out, std::ostream& err,
                    const SuiteMeasure& measure);

// Every registered lesson's comparisons for `suite`, in registration order.
Status lesson_benchmarks(compute::BenchSuite suite, compute::Device& device,
                         const DeviceCeilings& ceilings, int repeats, std::vector<RatioRow>& rows);

// One traced frame of the first lesson at 2^24 elements (2^20 on the emulator) delivered to OpenGL
// by interop against the copy path. Needs a GL context (EGL here) on the CUDA GPU; the row says why
// when absent.
RatioRow trace_delivery_ratio(compute::Device& device, int repeats);

}  // namespace tl::cli
