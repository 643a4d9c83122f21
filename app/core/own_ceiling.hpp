#pragma once
// A kernel's achieved share of its own ceiling, where that ceiling is not one of the device's
// (core/device_ceilings.hpp: the copy and cuBLAS SGEMM) but a row timed in the same run: a
// tensor-core rung against cuBLAS at its own precision (FP16, BF16, TF32), on the same inputs.
// Against FP32 SGEMM such a rung would read 200 % and say nothing of how good it is.

#include <optional>
#include <string>

namespace tl {

struct OwnCeilingShare {
  double share = 0;       // 0.67 for 67 %
  std::string ceiling;    // "device copy", "cuBLAS SGEMM", or the row's name
  bool same_run = false;  // the ceiling was timed in this run, not measured once per device
};

// The ratio of the two rates (floating-point operations per millisecond); none where either time
// or either amount of work is missing.
[[nodiscard]] std::optional<OwnCeilingShare> share_of_row(double flops, double milliseconds,
                                                          const std::string& ceiling_name,
                                                          double ceiling_flops,
                                                          double ceiling_milliseconds);

// A share as the timing table's share column writes it and the roofline labels its points:
// "42%", and two significant digits below 10 % ("0.42%", "1.2%").
[[nodiscard]] std::string format_share(double share);

}  // namespace tl
