#pragma once
// Labels for plot ticks and hover readouts. Tick labels are short because they sit side by side on
// a projector; readouts are precise because the user is reading one value.

#include <string>

namespace tl::plot {

enum class TickFormat {
  kNumber,        // plain number: "0.5", "20", "1e+06"
  kMilliseconds,  // value in ms, written with the unit that reads best: "10 µs", "2.5 ms", "1 s"
  kBytes,         // value in bytes, binary units: "512 B", "4 KiB", "1 MiB"
  kCount,         // element counts, SI suffixes: "500", "10K", "1M"
  kByteRate,  // bytes per second, decimal units as bandwidths are quoted: "820 GB/s", "3.3 TB/s"
  kFlopRate,  // floating-point operations per second: "900 GFLOP/s", "51 TFLOP/s"
};

// Short label for a tick: at most 3 significant digits ("10 ms", "1M", "4 KiB", "2.5").
[[nodiscard]] std::string format_tick(double value, TickFormat format);

// The same with an explicit precision, for linear ticks whose step needs more digits ("1.05K").
[[nodiscard]] std::string format_value(double value, TickFormat format, int significant_digits);

// Label for a hover readout: 4 significant digits ("12.35 ms", "1.5 MiB"); counts are exact with
// thousands separators, and powers of two also show the exponent ("1,048,576 (2^20)").
[[nodiscard]] std::string format_readout(double value, TickFormat format);

}  // namespace tl::plot
