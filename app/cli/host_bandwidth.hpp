#pragma once
// The CPU side of `bench --suite perf`: the host's memcpy bandwidth and the multi-threaded CPU
// vector add, measured the same way in the same run. Both split [0, n) with for_each_chunk over
// every hardware thread, and both count the bytes the program asks to move: memcpy reads n and
// writes n floats, the vector add reads 2n and writes n.

#include <cstdint>

#include "core/result.hpp"

namespace tl::cli {

struct HostBandwidth {
  double memcpy_bytes_per_second = 0;      // read + written
  double vector_add_bytes_per_second = 0;  // 2 read + 1 written per element
  unsigned threads = 0;
};

// Median over `repeats` runs of each (after one untimed run that also faults the pages in, spread
// over the threads that will use them), at n floats per array.
Result<HostBandwidth> measure_host_bandwidth(std::uint64_t n, int repeats);

}  // namespace tl::cli
