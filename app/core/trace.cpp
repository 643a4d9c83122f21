#include "trace.hpp"

#include <algorithm>
#include <ostream>
#include <vector>

namespace tl {

DecodedTrace decode(const TraceRecord& record, std::uint64_t element, const DataShape& shape,
                    const LaunchConfig& config, std::uint32_t warp_size) {
  DecodedTrace d;
  d.element = element;
  d.row = shape.cols == 0 ? 0 : element / shape.cols;
  d.col = shape.cols == 0 ? element : element % shape.cols;
  d.writes = record.writes;
  if (record.writes == 0) return d;
  d.written = true;
  const std::uint32_t thread = record.thread_and_sm & kTraceThreadMask;
  const std::uint32_t sm_plus_one = record.thread_and_sm >> kTraceSmShift;
  d.block = config.grid.unlinear(record.block);
  d.thread = config.block.unlinear(thread);
  d.warp = thread / warp_size;
  d.lane = thread % warp_size;
  d.sm = static_cast<std::int64_t>(sm_plus_one) - 1;
  d.iteration = record.iteration;
  return d;
}

TraceSummary summarize(std::span<const TraceRecord> records, const LaunchConfig& config) {
  TraceSummary s;
  s.elements = records.size();
  s.threads_launched = config.total_threads();
  // Idle threads are counted exactly with one bit per launched thread while that stays small; past
  // that, threads minus written elements, which is exact when each thread writes at most one
  // element.
  constexpr std::uint64_t kExactLimit = std::uint64_t{1} << 28;
  const bool exact = s.threads_launched <= kExactLimit;
  std::vector<bool> active(exact ? s.threads_launched : 0, false);
  std::uint64_t written = 0;
  const std::uint64_t per_block = config.block.volume();
  for (const TraceRecord& r : records) {
    if (r.writes == 0) {
      ++s.unwritten;
      continue;
    }
    ++written;
    if (r.writes > 1) ++s.written_more;
    s.max_iteration = std::max(s.max_iteration, r.iteration);
    if (exact) {
      const std::uint64_t thread =
          std::uint64_t{r.block} * per_block + (r.thread_and_sm & kTraceThreadMask);
      if (thread < active.size()) active[thread] = true;
    }
  }
  if (exact) {
    s.idle_threads = static_cast<std::uint64_t>(std::count(active.begin(), active.end(), false));
  } else {
    s.idle_threads = s.threads_launched > written ? s.threads_launched - written : 0;
  }
  return s;
}

Status write_trace_csv(std::ostream& out, std::span<const TraceRecord> records,
                       const DataShape& shape, const LaunchConfig& config) {
  out << kTraceCsvHeader << '\n';
  std::string line;
  for (std::uint64_t i = 0; i < records.size(); ++i) {
    const DecodedTrace d = decode(records[i], i, shape, config);
    line.clear();
    auto add = [&line](auto value) {
      line += std::to_string(value);
      line += ',';
    };
    add(d.element);
    add(d.row);
    add(d.col);
    if (d.written) {
      add(d.block.x), add(d.block.y), add(d.block.z);
      add(d.thread.x), add(d.thread.y), add(d.thread.z);
    } else {
      line += "-1,-1,-1,-1,-1,-1,";
    }
    add(d.warp);
    add(d.lane);
    add(d.sm);
    add(d.iteration);
    line += std::to_string(d.writes);
    line += '\n';
    out << line;
    if (!out) return Error{ErrorKind::kIoError, "writing the trace CSV failed (disk full?)"};
  }
  return Status::ok();
}

}  // namespace tl
