#pragma once
// A passing kernel's speed in words, the same for the Lab tab and `threadlab lab check`: its time,
// the reference solution's and the library's in the same run, and how close it comes to the
// ceilings measured in the same worker.

#include <string>
#include <vector>

#include "lab/lab_check.hpp"

namespace tl::lab {

struct TimingLine {
  std::string text;
  bool headline = false;  // the learner's own time
};

// One line per figure the verdict holds, in reading order; empty before a kernel was timed:
//   Your kernel: 14.2 µs on A 257×255, B 255×259
//   The reference solution: 14.0 µs (yours takes 1.01× as long)
//   cuBLAS SGEMM: 16.6 µs (yours takes 0.86× as long)
//   Memory: at least 12.6 MiB to move; a device-to-device copy of as much took 5.10 µs, so your
//   kernel runs at 36 % of the copy rate (887 GB/s)
//   Arithmetic: 33.8 MFLOP at 2.38 TFLOP/s (cuBLAS SGEMM: 2.04 TFLOP/s)
[[nodiscard]] std::vector<TimingLine> timing_summary(const CheckVerdict& verdict);

// The library reference's name for people: "cuBLAS SGEMM" for "cublas-sgemm".
[[nodiscard]] std::string library_display_name(const std::string& library);

}  // namespace tl::lab
