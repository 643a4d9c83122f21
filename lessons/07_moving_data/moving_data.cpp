#include "lessons/07_moving_data/moving_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

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

Status validate_moving_data(const MovingDataParams& p) {
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

std::vector<TimelineOp> model_pipeline(std::span<const StageTimes> per_chunk, std::uint32_t streams,
                                       bool overlap) {
  std::vector<TimelineOp> ops;
  if (streams == 0) streams = 1;
  std::vector<double> stream_free(streams, 0.0);
  double copy_in_free = 0, compute_free = 0, copy_out_free = 0, everything_free = 0;
  for (std::size_t c = 0; c < per_chunk.size(); ++c) {
    const auto stream = static_cast<std::uint32_t>(c % streams);
    const StageTimes& t = per_chunk[c];
    const double ready = overlap ? stream_free[stream] : everything_free;
    const double in_start = std::max(ready, copy_in_free);
    const double in_end = in_start + t.copy_in_ms;
    const double k_start = std::max(in_end, compute_free);
    const double k_end = k_start + t.kernel_ms;
    const double out_start = std::max(k_end, copy_out_free);
    const double out_end = out_start + t.copy_out_ms;
    copy_in_free = in_end;
    compute_free = k_end;
    copy_out_free = out_end;
    stream_free[stream] = out_end;
    everything_free = out_end;
    const auto chunk = static_cast<std::uint32_t>(c);
    ops.push_back({chunk, stream, Stage::kCopyIn, in_start, in_end});
    ops.push_back({chunk, stream, Stage::kKernel, k_start, k_end});
    ops.push_back({chunk, stream, Stage::kCopyOut, out_start, out_end});
  }
  return ops;
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
  auto name = [](const TimelineOp& op) {
    return "chunk " + std::to_string(op.chunk) + "'s " + std::string(to_string(op.stage));
  };
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
  for (std::size_t i = 0; i < ops.size(); ++i) {
    lanes[static_cast<std::size_t>(ops[i].stage)].ops.push_back(i);
    if (ops[i].stream < streams) lanes[3 + ops[i].stream].ops.push_back(i);
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
    out << op.chunk << ',' << op.stream << ',' << to_string(op.stage) << ','
        << number(op.start_ms, "%.6f") << ',' << number(op.end_ms, "%.6f") << '\n';
  }
  return out.str();
}

std::string timeline_json(std::span<const TimelineOp> ops, std::uint32_t streams,
                          std::string_view memory, bool modelled) {
  const PipelineSummary s = summarize_pipeline(ops);
  // Microseconds are the events' resolution; more digits would only be noise in the file.
  auto ms = [](double value) { return std::round(value * 1e6) / 1e6; };
  nlohmann::ordered_json timeline = {{"streams", streams},
                                     {"memory", std::string(memory)},
                                     {"source", modelled ? "model" : "gpu-events"},
                                     {"total_ms", ms(s.total_ms)},
                                     {"serial_ms", ms(s.serial_ms)},
                                     {"ideal_ms", ms(s.ideal_ms)},
                                     {"overlap_won", std::round(s.overlap_won * 1e4) / 1e4}};
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const TimelineOp& op : ops) {
    list.push_back({{"chunk", op.chunk},
                    {"stream", op.stream},
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
