#pragma once
// Reading traces: decoding records into the columns users see, summarising them, writing CSV.

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string_view>

#include "launch_config.hpp"
#include "result.hpp"
#include "trace_record.hpp"

namespace tl {

// One element's record, decoded with the launch configuration that produced it.
struct DecodedTrace {
  std::uint64_t element = 0;
  std::uint64_t row = 0;
  std::uint64_t col = 0;
  bool written = false;
  Dim3 block{0, 0, 0};
  Dim3 thread{0, 0, 0};
  std::int64_t warp = -1;
  std::int64_t lane = -1;
  std::int64_t sm = -1;
  std::uint32_t iteration = 0;
  std::uint32_t writes = 0;
};

// Data laid out as rows × cols (1D data is one row of n columns).
struct DataShape {
  std::uint64_t rows = 1;
  std::uint64_t cols = 0;
  [[nodiscard]] std::uint64_t elements() const { return rows * cols; }
  friend bool operator==(const DataShape&, const DataShape&) = default;
};

DecodedTrace decode(const TraceRecord& record, std::uint64_t element, const DataShape& shape,
                    const LaunchConfig& config, std::uint32_t warp_size = 32);

struct TraceSummary {
  std::uint64_t elements = 0;
  std::uint64_t unwritten = 0;     // elements no thread wrote: the grid was too small
  std::uint64_t written_more = 0;  // elements written more than once: overlapping indices
  std::uint64_t threads_launched = 0;
  std::uint64_t idle_threads = 0;  // threads launched that had no element: i >= n
  std::uint32_t max_iteration = 0;
};

TraceSummary summarize(std::span<const TraceRecord> records, const LaunchConfig& config);

// The exact CSV header of the trace export, shared by every lesson.
inline constexpr std::string_view kTraceCsvHeader =
    "element,row,col,block_x,block_y,block_z,thread_x,thread_y,thread_z,warp,lane,sm,iteration,"
    "writes";

// Writes the header and one row per element.
Status write_trace_csv(std::ostream& out, std::span<const TraceRecord> records,
                       const DataShape& shape, const LaunchConfig& config);

}  // namespace tl
