// `threadlab bench --suite ratios`: the comparisons a user makes, each measured in one run on one
// device: the device's copy against its theoretical bandwidth, then every lesson's own comparisons
// (vector add against the copy, the matrix-multiply kernels against cuBLAS, the fused dense layer
// against the unfused chain and cuBLAS; each lesson module's benchmark hook), then one traced
// frame by interop against the copy path.

#include <algorithm>

#include "commands.hpp"
#include "ratio_suite.hpp"
#include "ratio_table.hpp"

namespace tl::cli {

int command_bench_ratios(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  return run_ratio_suite(
      options, out, err,
      [&options](compute::Device& device, const DeviceCeilings& ceilings,
                 std::vector<RatioRow>& rows) -> Status {
        RatioRow copy =
            rate_ratio(device.is_gpu() ? "device-to-device copy" : "host memcpy",
                       ceilings.copy_bytes_per_second / 1e9, "GB/s", "theoretical DRAM bandwidth",
                       device.info().theoretical_bandwidth_gbps());
        if (copy.reference <= 0) copy.absent = "unknown on this device";
        rows.push_back(std::move(copy));
        TL_RETURN_IF_ERROR(lesson_benchmarks(compute::BenchSuite::kRatios, device, ceilings,
                                             options.repeats, rows));
        rows.push_back(trace_delivery_ratio(device, std::max(options.repeats, 5)));
        return Status::ok();
      });
}

}  // namespace tl::cli
