#include "lessons/07_moving_data/moving_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/format.hpp"
#include "core/parallel_chunks.hpp"

namespace tl::lessons {
namespace {

std::string number(double value, const char* format = "%.6g") {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string read_first_line(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  if (file) std::getline(file, line);
  return line;
}

std::uint32_t ulp_distance(float a, float b) {
  std::int32_t ia, ib;
  std::memcpy(&ia, &a, sizeof ia);
  std::memcpy(&ib, &b, sizeof ib);
  if ((ia < 0) != (ib < 0)) return a == b ? 0 : 0xFFFFFFFFu;
  return static_cast<std::uint32_t>(ia > ib ? ia - ib : ib - ia);
}

}  // namespace

Result<HostMemory> parse_host_memory(std::string_view text) {
  if (text == "pageable") return HostMemory::kPageable;
  if (text == "pinned") return HostMemory::kPinned;
  if (text == "managed") return HostMemory::kManaged;
  return invalid_argument("memory must be pageable, pinned or managed, not '" + std::string(text) +
                          "'.");
}

std::string_view to_string(HostMemory memory) {
  switch (memory) {
    case HostMemory::kPageable:
      return "pageable";
    case HostMemory::kPinned:
      return "pinned";
    case HostMemory::kManaged:
      return "managed";
  }
  return "pageable";
}

namespace {
constexpr std::pair<Schedule, std::string_view> kSchedules[] = {
    {Schedule::kDepthFirst, "depth-first"},
    {Schedule::kBreadthFirst, "breadth-first"},
    {Schedule::kLegacyDefault, "legacy-default"},
    {Schedule::kLegacyNonBlocking, "legacy-nonblocking"},
    {Schedule::kPerThreadDefault, "per-thread-default"},
    {Schedule::kCopyStream, "copy-stream"},
};
}  // namespace

Result<Schedule> parse_schedule(std::string_view text) {
  std::string names;
  for (const auto& [schedule, name] : kSchedules) {
    if (text == name) return schedule;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return invalid_argument("schedule must be one of " + names + ", not '" + std::string(text) +
                          "'.");
}

std::string_view to_string(Schedule schedule) {
  for (const auto& [s, name] : kSchedules) {
    if (s == schedule) return name;
  }
  return "depth-first";
}

std::vector<std::string> schedule_names() {
  std::vector<std::string> names;
  for (const auto& entry : kSchedules) names.emplace_back(entry.second);
  return names;
}

bool has_default_stream_kernel(Schedule schedule) {
  return schedule == Schedule::kLegacyDefault || schedule == Schedule::kLegacyNonBlocking ||
         schedule == Schedule::kPerThreadDefault;
}

bool creates_blocking_streams(Schedule schedule) {
  return schedule == Schedule::kLegacyDefault || schedule == Schedule::kPerThreadDefault;
}

std::string_view to_string(Queue queue) {
  switch (queue) {
    case Queue::kCreated:
      return "created";
    case Queue::kCopyStream:
      return "copy";
    case Queue::kLegacyDefault:
      return "legacy";
    case Queue::kPerThreadDefault:
      return "per-thread";
  }
  return "created";
}

Status validate_moving_data(const MovingDataParams& p) {
  if (has_default_stream_kernel(p.schedule) && p.chunks < 2) {
    return invalid_argument("schedule=" + std::string(to_string(p.schedule)) +
                            " issues a kernel on a default stream halfway through the chunks: it "
                            "needs 2 chunks at least, so that work is issued on both sides of it.");
  }
  if (p.chunks == 0) {
    return invalid_argument("chunks must be at least 1: a pipeline of zero chunks moves nothing.");
  }
  if (p.chunks > kMaxChunks) {
    return invalid_argument("chunks must be at most " + std::to_string(kMaxChunks) + ", not " +
                            std::to_string(p.chunks) + ".");
  }
  if (p.streams == 0 || p.streams > kMaxStreams) {
    return invalid_argument("streams must be between 1 and " + std::to_string(kMaxStreams) +
                            ", not " + std::to_string(p.streams) + ".");
  }
  if (p.streams > p.chunks) {
    return invalid_argument(
        "streams (" + std::to_string(p.streams) + ") must not exceed chunks (" +
        std::to_string(p.chunks) +
        "): each stream carries whole chunks, so a stream without one would have nothing to "
        "overlap. Ask for more chunks or fewer streams.");
  }
  if (p.bytes < 4 * p.chunks) {
    return invalid_argument("bytes (" + std::to_string(p.bytes) +
                            ") must hold at least one float (4 bytes) per chunk (" +
                            std::to_string(p.chunks) + " chunks).");
  }
  const std::uint64_t largest_chunk = (p.elements() + p.chunks - 1) / p.chunks;
  if (largest_chunk > 0x7FFFFFFFull) {
    return invalid_argument("a chunk of " + format_count(largest_chunk) +
                            " floats is past the kernel's int index: ask for more chunks.");
  }
  if (p.rounds > kMaxRounds) {
    return invalid_argument("work must be at most " + std::to_string(kMaxRounds) +
                            " multiply-adds per element (0: balance the kernel with a copy).");
  }
  if (p.block == 0 || p.block > 1024) {
    return invalid_argument("block must be between 1 and 1024 threads, not " +
                            std::to_string(p.block) + ".");
  }
  return Status::ok();
}

Status check_moving_data_memory(const MovingDataParams& p, std::uint64_t host_free,
                                std::uint64_t device_free) {
  // Input and output on the host, once pageable and once pinned (the run compares both); input and
  // output on the device. Only a share of what is free: the rest of the system needs some too.
  const std::uint64_t host_need = 4 * p.bytes;
  const std::uint64_t device_need = 2 * p.bytes;
  if (host_free > 0 && host_need > host_free / 2) {
    return Error{ErrorKind::kOutOfMemory,
                 "bytes = " + format_bytes(static_cast<double>(p.bytes)) + " needs " +
                     format_bytes(static_cast<double>(host_need)) +
                     " of host memory (input and output, pageable and pinned), more than half of "
                     "the " +
                     format_bytes(static_cast<double>(host_free)) +
                     " available: ask for fewer bytes."};
  }
  if (device_free > 0 && device_need > device_free / 2) {
    return Error{ErrorKind::kOutOfMemory,
                 "bytes = " + format_bytes(static_cast<double>(p.bytes)) + " needs " +
                     format_bytes(static_cast<double>(device_need)) +
                     " of device memory (input and output), more than half of the " +
                     format_bytes(static_cast<double>(device_free)) +
                     " free: ask for fewer bytes."};
  }
  return Status::ok();
}

std::uint64_t host_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return value * 1024;
  }
  return 0;
}

std::vector<ChunkRange> split_chunks(std::uint64_t elements, std::uint64_t chunks) {
  std::vector<ChunkRange> ranges;
  if (chunks == 0) return ranges;
  const std::uint64_t base = elements / chunks, extra = elements % chunks;
  std::uint64_t begin = 0;
  for (std::uint64_t c = 0; c < chunks; ++c) {
    const std::uint64_t count = base + (c < extra ? 1 : 0);
    ranges.push_back({begin, count});
    begin += count;
  }
  return ranges;
}

std::vector<std::uint32_t> measured_stream_counts(std::uint32_t selected, std::uint64_t chunks) {
  std::vector<std::uint32_t> counts;
  for (std::uint32_t s : {1u, 2u, 4u, 8u, selected}) {
    if (s >= 1 && s <= chunks) counts.push_back(s);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::vector<std::uint64_t> copy_sweep_sizes(std::uint64_t top) {
  top = std::min(top, kCopySweepLargest);
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t b = kCopySweepSmallest; b <= top; b *= 4) sizes.push_back(b);
  if (top >= kCopySweepSmallest && sizes.back() != top) sizes.push_back(top);
  return sizes;
}

std::optional<CopyKnee> copy_knee(std::span<const CopyPoint> points) {
  if (points.size() < 2) return std::nullopt;
  const CopyPoint* smallest = &points.front();
  double best = 0;
  for (const CopyPoint& p : points) {
    if (p.bytes < smallest->bytes) smallest = &p;
    best = std::max(best, p.bytes_per_second());
  }
  if (best <= 0 || smallest->ms <= 0) return std::nullopt;
  CopyKnee knee;
  knee.latency_ms = smallest->ms;
  knee.bandwidth = best;
  knee.knee_bytes = knee.latency_ms * 1e-3 * knee.bandwidth;
  return knee;
}

std::string LinkCeiling::describe() const {
  if (!known) return "link ceiling unknown: " + source;
  std::string text = "PCIe";
  if (generation > 0) text += " " + std::to_string(generation) + ".0";
  text += " x" + std::to_string(width) + " (" + number(transfers_per_second / 1e9, "%.1f") +
          " GT/s per lane): " + number(bytes_per_second / 1e9, "%.1f") +
          " GB/s per direction, from " + source;
  return text;
}

LinkCeiling link_ceiling_from_sysfs(std::string_view speed_text, std::string_view width_text) {
  LinkCeiling ceiling;
  const std::string speed = trim(speed_text), width = trim(width_text);
  double gts = 0;
  int lanes = 0;
  if (speed.empty() || std::sscanf(speed.c_str(), "%lf GT/s", &gts) != 1 || gts <= 0) {
    ceiling.source = "the link speed reads '" + speed + "'";
    return ceiling;
  }
  if (width.empty() || std::sscanf(width.c_str(), "%d", &lanes) != 1 || lanes <= 0) {
    ceiling.source = "the link width reads '" + width + "'";
    return ceiling;
  }
  // The generations by their rate per lane; 8b/10b coding up to 5 GT/s, 128b/130b from 8 GT/s.
  constexpr std::array<std::pair<double, int>, 6> kGenerations{
      {{2.5, 1}, {5, 2}, {8, 3}, {16, 4}, {32, 5}, {64, 6}}};
  for (const auto& [rate, generation] : kGenerations) {
    if (std::abs(rate - gts) < 0.05) ceiling.generation = generation;
  }
  const double coding = gts <= 5.0 ? 8.0 / 10.0 : 128.0 / 130.0;
  ceiling.known = true;
  ceiling.transfers_per_second = gts * 1e9;
  ceiling.width = lanes;
  ceiling.bytes_per_second = gts * 1e9 * lanes * coding / 8.0;
  ceiling.source = "the device's PCI link as the kernel reports it";
  return ceiling;
}

LinkCeiling read_link_ceiling(const std::string& pci_bus_id) {
  // sysfs names devices in lower case ("0000:3b:00.0"); CUDA writes them in upper case.
  std::string id = pci_bus_id;
  std::transform(id.begin(), id.end(), id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string folder = "/sys/bus/pci/devices/" + id + "/";
  const std::string speed = read_first_line(folder + "current_link_speed");
  const std::string width = read_first_line(folder + "current_link_width");
  if (speed.empty() && width.empty()) {
    LinkCeiling unknown;
    unknown.source = "no PCI link information at " + folder +
                     " (a virtual machine or a link that is not PCIe, such as NVLink-C2C)";
    return unknown;
  }
  LinkCeiling ceiling = link_ceiling_from_sysfs(speed, width);
  if (ceiling.known) ceiling.source = folder + "current_link_{speed,width}";
  return ceiling;
}

std::string_view to_string(Stage stage) {
  switch (stage) {
    case Stage::kCopyIn:
      return "copy-in";
    case Stage::kKernel:
      return "kernel";
    case Stage::kCopyOut:
      return "copy-out";
  }
  return "copy-in";
}

StageTimes stage_sums(std::span<const TimelineOp> ops) {
  StageTimes sums;
  for (const TimelineOp& op : ops) {
    const double d = op.duration_ms();
    switch (op.stage) {
      case Stage::kCopyIn:
        sums.copy_in_ms += d;
        break;
      case Stage::kKernel:
        sums.kernel_ms += d;
        break;
      case Stage::kCopyOut:
        sums.copy_out_ms += d;
        break;
    }
  }
  return sums;
}

double overlap_won(double total_ms, double serial_ms, double ideal_ms) {
  const double could = serial_ms - ideal_ms;
  if (could <= 0) return 0;
  return std::clamp((serial_ms - total_ms) / could, 0.0, 1.0);
}

PipelineSummary summarize_pipeline(std::span<const TimelineOp> ops) {
  PipelineSummary s;
  if (ops.empty()) return s;
  double first = ops.front().start_ms, last = ops.front().end_ms;
  for (const TimelineOp& op : ops) {
    first = std::min(first, op.start_ms);
    last = std::max(last, op.end_ms);
  }
  const StageTimes sums = stage_sums(ops);
  s.total_ms = last - first;
  s.serial_ms = sums.copy_in_ms + sums.kernel_ms + sums.copy_out_ms;
  s.ideal_ms = std::max({sums.copy_in_ms, sums.kernel_ms, sums.copy_out_ms});
  s.overlap_won = overlap_won(s.total_ms, s.serial_ms, s.ideal_ms);
  s.over_ideal = s.ideal_ms > 0 ? s.total_ms / s.ideal_ms : 0;
  return s;
}

std::vector<PlannedOp> plan_pipeline(std::uint64_t chunks, std::uint32_t streams,
                                     Schedule schedule) {
  std::vector<PlannedOp> plan;
  if (streams == 0) streams = 1;
  auto on = [&](std::uint64_t c) { return static_cast<std::uint32_t>(c % streams); };
  auto chunk = [](std::uint64_t c) { return static_cast<std::uint32_t>(c); };
  if (schedule == Schedule::kBreadthFirst) {
    for (Stage stage : {Stage::kCopyIn, Stage::kKernel, Stage::kCopyOut}) {
      for (std::uint64_t c = 0; c < chunks; ++c) plan.push_back({chunk(c), on(c), stage});
    }
    return plan;
  }
  // The default-stream kernel goes after the first half of the chunks (at least one).
  const std::uint64_t half = std::max<std::uint64_t>(1, chunks / 2);
  for (std::uint64_t c = 0; c < chunks; ++c) {
    if (schedule == Schedule::kCopyStream) {
      plan.push_back({chunk(c), streams, Stage::kCopyIn, Queue::kCopyStream});
      plan.push_back(
          {chunk(c), on(c), Stage::kKernel, Queue::kCreated, static_cast<int>(plan.size() - 1)});
    } else {
      plan.push_back({chunk(c), on(c), Stage::kCopyIn});
      plan.push_back({chunk(c), on(c), Stage::kKernel});
    }
    plan.push_back({chunk(c), on(c), Stage::kCopyOut});
    if (has_default_stream_kernel(schedule) && c + 1 == half) {
      plan.push_back({kNoChunk, streams, Stage::kKernel,
                      schedule == Schedule::kPerThreadDefault ? Queue::kPerThreadDefault
                                                              : Queue::kLegacyDefault});
    }
  }
  return plan;
}

std::uint32_t connections_from(const char* text) {
  if (text == nullptr) return kDefaultConnections;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  // The runtime accepts 1 to 32; anything else leaves its default in force.
  if (end == text || *end != '\0' || value < 1 || value > 32) return kDefaultConnections;
  return static_cast<std::uint32_t>(value);
}

std::vector<TimelineOp> model_schedule(std::span<const StageTimes> per_chunk, std::uint32_t streams,
                                       Schedule schedule, const ScheduleModel& model) {
  if (streams == 0) streams = 1;
  const std::uint32_t connections = std::max<std::uint32_t>(1, model.connections);
  const std::vector<PlannedOp> plan = plan_pipeline(per_chunk.size(), streams, schedule);
  const bool blocking = creates_blocking_streams(schedule);
  std::vector<TimelineOp> ops;
  ops.reserve(plan.size());
  std::vector<double> stream_end(streams + 1, 0.0);  // the created streams, then the extra one
  std::vector<double> queue_start(connections, 0.0);
  std::array<double, 3> engine_end{};
  double everything_end = 0;  // the latest end so far: what a serial run and the barrier wait for
  double barrier_end = 0;     // the legacy default-stream kernel's end, with blocking streams
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PlannedOp& p = plan[i];
    const auto engine = static_cast<std::size_t>(p.stage);
    double duration = model.marker_ms;
    if (p.chunk != kNoChunk) {
      const StageTimes& t = per_chunk[p.chunk];
      duration = p.stage == Stage::kCopyIn   ? t.copy_in_ms
                 : p.stage == Stage::kKernel ? t.kernel_ms
                                             : t.copy_out_ms;
    }
    const std::uint32_t queue = p.stream % connections;
    double start = everything_end;
    if (model.overlap) {
      start = std::max({stream_end[p.stream], engine_end[engine], queue_start[queue]});
      if (p.wait_for >= 0)
        start = std::max(start, ops[static_cast<std::size_t>(p.wait_for)].end_ms);
      const bool barrier = blocking && p.queue == Queue::kLegacyDefault;
      // Only the created streams are blocking; everything issued before the barrier is on them.
      if (barrier) start = std::max(start, everything_end);
      if (blocking && p.queue == Queue::kCreated) start = std::max(start, barrier_end);
    }
    const double end = start + duration;
    if (blocking && p.queue == Queue::kLegacyDefault) barrier_end = end;
    stream_end[p.stream] = end;
    engine_end[engine] = end;
    queue_start[queue] = start;
    everything_end = std::max(everything_end, end);
    ops.push_back({p.chunk, p.stream, p.stage, start, end, p.queue, static_cast<std::uint32_t>(i)});
  }
  return ops;
}

std::vector<TimelineOp> model_pipeline(std::span<const StageTimes> per_chunk, std::uint32_t streams,
                                       bool overlap) {
  return model_schedule(per_chunk, streams, Schedule::kDepthFirst,
                        {.connections = kDefaultConnections, .overlap = overlap});
}

const TimelineOp* default_stream_op(std::span<const TimelineOp> ops) {
  for (const TimelineOp& op : ops) {
    if (op.on_default_stream()) return &op;
  }
  return nullptr;
}

namespace {
std::string op_name(const TimelineOp& op) {
  if (op.on_default_stream()) {
    return "the " + std::string(to_string(op.queue)) + " default-stream kernel";
  }
  return "chunk " + std::to_string(op.chunk) + "'s " + std::string(to_string(op.stage));
}
}  // namespace

std::optional<std::string> barrier_violation(std::span<const TimelineOp> ops) {
  const TimelineOp* marker = default_stream_op(ops);
  if (marker == nullptr) return std::nullopt;
  // A microsecond of slack: events and the engine correction round to about that.
  constexpr double kSlack = 1e-3;
  for (const TimelineOp& op : ops) {
    if (&op == marker) continue;
    if (op.issue < marker->issue && op.end_ms > marker->start_ms + kSlack) {
      return op_name(op) + ", issued before " + op_name(*marker) + ", ends at " +
             number(op.end_ms) + " ms, after that kernel starts at " + number(marker->start_ms) +
             " ms";
    }
    if (op.issue > marker->issue && op.start_ms + kSlack < marker->end_ms) {
      return op_name(op) + ", issued after " + op_name(*marker) + ", starts at " +
             number(op.start_ms) + " ms, before that kernel ends at " + number(marker->end_ms) +
             " ms";
    }
  }
  return std::nullopt;
}

std::vector<TimelineOp> start_on_engines(std::vector<TimelineOp> ops) {
  for (Stage stage : {Stage::kCopyIn, Stage::kKernel, Stage::kCopyOut}) {
    std::vector<TimelineOp*> on_engine;
    for (TimelineOp& op : ops) {
      if (op.stage == stage) on_engine.push_back(&op);
    }
    std::stable_sort(
        on_engine.begin(), on_engine.end(),
        [](const TimelineOp* a, const TimelineOp* b) { return a->end_ms < b->end_ms; });
    double engine_free = -1e300;
    for (TimelineOp* op : on_engine) {
      // Never past its own end: an engine that ran two operations at once (two small kernels side
      // by side) keeps the recorded start rather than an interval of negative length.
      op->start_ms = std::min(op->end_ms, std::max(op->start_ms, engine_free));
      engine_free = op->end_ms;
    }
  }
  return ops;
}

std::optional<std::string> timeline_order_violation(std::span<const TimelineOp> ops) {
  auto name = [](const TimelineOp& op) { return op_name(op); };
  for (const TimelineOp& op : ops) {
    if (!(op.start_ms >= 0) || !(op.end_ms >= op.start_ms)) {
      return name(op) + " runs from " + number(op.start_ms) + " to " + number(op.end_ms) + " ms";
    }
  }
  for (const TimelineOp& a : ops) {
    for (const TimelineOp& b : ops) {
      if (a.chunk != b.chunk || static_cast<int>(b.stage) != static_cast<int>(a.stage) + 1) {
        continue;
      }
      // A microsecond of slack: events and the engine correction round to about that.
      if (b.start_ms + 1e-3 < a.end_ms) {
        return name(b) + " starts at " + number(b.start_ms) + " ms, before " + name(a) +
               " ends at " + number(a.end_ms) + " ms";
      }
    }
  }
  return std::nullopt;
}

double cross_stream_overlap_ms(std::span<const TimelineOp> ops) {
  double overlap = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (std::size_t j = i + 1; j < ops.size(); ++j) {
      if (ops[i].stream == ops[j].stream) continue;
      const double from = std::max(ops[i].start_ms, ops[j].start_ms);
      const double to = std::min(ops[i].end_ms, ops[j].end_ms);
      if (to > from) overlap += to - from;
    }
  }
  return overlap;
}

std::vector<TimelineLane> timeline_lanes(std::span<const TimelineOp> ops, std::uint32_t streams) {
  std::vector<TimelineLane> lanes = {{"copies in", {}}, {"kernels", {}}, {"copies out", {}}};
  for (std::uint32_t s = 0; s < streams; ++s) lanes.push_back({"stream " + std::to_string(s), {}});
  std::vector<std::pair<Queue, std::size_t>> extra;  // a lane per extra stream, in first use order
  for (std::size_t i = 0; i < ops.size(); ++i) {
    lanes[static_cast<std::size_t>(ops[i].stage)].ops.push_back(i);
    if (ops[i].queue == Queue::kCreated) {
      if (ops[i].stream < streams) lanes[3 + ops[i].stream].ops.push_back(i);
      continue;
    }
    auto found = std::find_if(extra.begin(), extra.end(),
                              [&](const auto& e) { return e.first == ops[i].queue; });
    if (found == extra.end()) {
      const char* label = ops[i].queue == Queue::kCopyStream      ? "copy stream"
                          : ops[i].queue == Queue::kLegacyDefault ? "legacy default stream"
                                                                  : "per-thread default stream";
      lanes.push_back({label, {}});
      extra.emplace_back(ops[i].queue, lanes.size() - 1);
      found = extra.end() - 1;
    }
    lanes[found->second].ops.push_back(i);
  }
  for (TimelineLane& lane : lanes) {
    std::stable_sort(lane.ops.begin(), lane.ops.end(), [&](std::size_t a, std::size_t b) {
      return ops[a].start_ms < ops[b].start_ms;
    });
  }
  return lanes;
}

std::string timeline_csv(std::span<const TimelineOp> ops) {
  std::ostringstream out;
  out << "chunk,stream,stage,start_ms,end_ms\n";
  for (const TimelineOp& op : ops) {
    // The default-stream kernel belongs to no chunk; the extra streams go by their names.
    if (op.chunk != kNoChunk) out << op.chunk;
    out << ',';
    if (op.queue == Queue::kCreated) {
      out << op.stream;
    } else {
      out << to_string(op.queue);
    }
    out << ',' << to_string(op.stage) << ',' << number(op.start_ms, "%.6f") << ','
        << number(op.end_ms, "%.6f") << '\n';
  }
  return out.str();
}

std::string timeline_json(std::span<const TimelineOp> ops, std::uint32_t streams,
                          std::string_view memory, bool modelled, Schedule schedule) {
  const PipelineSummary s = summarize_pipeline(ops);
  // Microseconds are the events' resolution; more digits would only be noise in the file.
  auto ms = [](double value) { return std::round(value * 1e6) / 1e6; };
  nlohmann::ordered_json timeline = {{"streams", streams},
                                     {"memory", std::string(memory)},
                                     {"schedule", std::string(to_string(schedule))},
                                     {"source", modelled ? "model" : "gpu-events"},
                                     {"total_ms", ms(s.total_ms)},
                                     {"serial_ms", ms(s.serial_ms)},
                                     {"ideal_ms", ms(s.ideal_ms)},
                                     {"overlap_won", std::round(s.overlap_won * 1e4) / 1e4}};
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const TimelineOp& op : ops) {
    nlohmann::ordered_json chunk = nullptr, stream = op.stream;
    if (op.chunk != kNoChunk) chunk = op.chunk;
    if (op.queue != Queue::kCreated) stream = std::string(to_string(op.queue));
    list.push_back({{"chunk", chunk},
                    {"stream", stream},
                    {"stage", to_string(op.stage)},
                    {"start_ms", ms(op.start_ms)},
                    {"end_ms", ms(op.end_ms)}});
  }
  timeline["ops"] = std::move(list);
  return timeline.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::optional<std::uint64_t> batch_crossover(std::span<const BatchPoint> points) {
  std::optional<std::uint64_t> from;
  for (const BatchPoint& p : points) {
    const bool ahead = p.device_samples_per_second > p.cpu_samples_per_second;
    if (ahead && !from) from = p.batch;
    if (!ahead) from.reset();
  }
  return from;
}

void transform_reference(std::span<const float> in, std::span<float> out, std::uint32_t rounds) {
  // x -> 0.75 x + 0.125 contracts towards 0.5; once a round leaves x unchanged every later round
  // does too, so stopping there gives the same bits as all the rounds. A GPU-sized run has 2^24
  // elements and thousands of rounds: the whole chain cost the check about a minute, the chain up
  // to its fixed point (a few dozen rounds for the lesson's inputs, a few hundred at most for any
  // finite float) costs a second.
  for_each_chunk(in.size(), 0, 1 << 16, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      float x = in[i];
      for (std::uint32_t r = 0; r < rounds; ++r) {
        const float next = std::fmaf(x, 0.75f, 0.125f);
        if (next == x) break;
        x = next;
      }
      out[i] = x;
    }
  });
}

std::string MovingDataCheck::describe() const {
  if (passed) return "check passed: every element equals the CPU's";
  return "check FAILED: " + format_count(wrong) + " element(s) wrong, first at " +
         std::to_string(first_wrong) + ": expected " + number(expected, "%.9g") + ", got " +
         number(actual, "%.9g");
}

MovingDataCheck check_transform(std::span<const float> in, std::span<const float> out,
                                std::uint32_t rounds) {
  MovingDataCheck check;
  std::vector<float> expected(in.size());
  transform_reference(in, expected, rounds);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float actual = i < out.size() ? out[i] : std::nanf("");
    if (std::isnan(actual) || ulp_distance(expected[i], actual) > 2) {
      if (check.wrong == 0) {
        check.first_wrong = i;
        check.expected = expected[i];
        check.actual = actual;
      }
      ++check.wrong;
    }
  }
  check.passed = check.wrong == 0;
  return check;
}

}  // namespace tl::lessons
