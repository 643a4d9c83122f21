#pragma once
// Lesson 7, moving data: the parameters, the arithmetic of copies and pipelines (the knee of the
// copy curve, the serial sum, the ideal bound, the overlap won, the modelled schedule of a
// pipeline), the link's ceiling, the CPU reference and the check. No CUDA here: the kernel lives in
// lessons/07_moving_data/kernels/moving_data.cuh, the measurements in moving_data_runner and cuda/.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/result.hpp"

namespace tl::lessons {

inline constexpr LessonInfo kMovingDataInfo{
    7, "moving-data", "Moving data",
    "Pageable and pinned copies, batches, and streams that overlap copies with kernels",
    "07_moving_data"};
inline constexpr std::string_view kMovingDataId = kMovingDataInfo.id;

// Where the pipeline's host data lives.
enum class HostMemory {
  kPageable,  // ordinary memory (std::vector, malloc, a NumPy array)
  kPinned,    // page-locked: cudaMallocHost, PyTorch's pin_memory()
  kManaged,   // unified memory: cudaMallocManaged, migrated by prefetches
};
Result<HostMemory> parse_host_memory(std::string_view text);
[[nodiscard]] std::string_view to_string(HostMemory memory);

// The order the pipeline's operations are issued in and the streams they go to: the timeline
// experiments of the lesson's section 2 (lesson.md). The data, the kernel and the checks are the
// same for every schedule; only the issue order, the streams and what they wait for change.
enum class Schedule : std::uint8_t {
  // Chunk by chunk: copy in, kernel, copy out on stream chunk % streams, then the next chunk.
  kDepthFirst,
  // Every copy in, then every kernel, then every copy out, each on its chunk's stream.
  kBreadthFirst,
  // Depth-first on streams created blocking (cudaStreamCreate), with one small kernel issued on
  // the legacy default stream (cudaStreamLegacy) halfway through: an implicit barrier.
  kLegacyDefault,
  // The same kernel on the legacy default stream, the streams created cudaStreamNonBlocking: no
  // barrier.
  kLegacyNonBlocking,
  // The same kernel on the per-thread default stream (cudaStreamPerThread), the streams blocking:
  // no barrier either (only the legacy default stream synchronises with blocking streams).
  kPerThreadDefault,
  // Every copy in on one copy stream of its own; each kernel (and its copy out) on the chunk's
  // stream, waiting for its chunk's copy with cudaStreamWaitEvent.
  kCopyStream,
};
Result<Schedule> parse_schedule(std::string_view text);
[[nodiscard]] std::string_view to_string(Schedule schedule);
// Every schedule's name, in the order above ("depth-first", ...).
[[nodiscard]] std::vector<std::string> schedule_names();
// Whether the schedule issues a kernel on a default stream halfway through.
[[nodiscard]] bool has_default_stream_kernel(Schedule schedule);
// Whether the schedule creates its streams blocking (cudaStreamCreate) rather than
// cudaStreamNonBlocking.
[[nodiscard]] bool creates_blocking_streams(Schedule schedule);

struct MovingDataParams {
  std::uint64_t bytes = 64ull << 20;  // the pipeline's data (floats)
  std::uint64_t chunks = 16;
  std::uint32_t streams = 4;  // the stream count drawn; a timed run measures 1, 2, 4, 8 as well
  HostMemory memory = HostMemory::kPinned;
  std::uint32_t rounds = 0;  // FMAs per element in the kernel; 0: balance the kernel with a copy
  std::uint32_t block = 256;
  Schedule schedule = Schedule::kDepthFirst;

  [[nodiscard]] std::uint64_t elements() const { return bytes / 4; }
};

// The pipeline's limits: a float array of at least one element per chunk, chunks that each fit the
// kernel's int index, at least one chunk, between 1 and kMaxStreams streams and no more streams
// than chunks (a stream without a chunk would have nothing to overlap); a schedule with a
// default-stream kernel needs 2 chunks at least, so that work is issued on both sides of it.
inline constexpr std::uint32_t kMaxStreams = 32;
inline constexpr std::uint64_t kMaxChunks = 4096;
Status validate_moving_data(const MovingDataParams& params);

// The memory the run needs against the memory there is: host (the input and the output, twice
// over for the pageable and the pinned copy) and device (the input and the output). 0 skips a
// side. The messages say how much is free, so a user knows what size to ask for.
Status check_moving_data_memory(const MovingDataParams& params, std::uint64_t host_free,
                                std::uint64_t device_free);

// Free host memory as the kernel counts it (MemAvailable in /proc/meminfo; 0 when unknown).
[[nodiscard]] std::uint64_t host_available_bytes();

// The chunk boundaries: `chunks` pieces of the n elements, the first n % chunks one element longer.
struct ChunkRange {
  std::uint64_t begin = 0;
  std::uint64_t count = 0;
};
[[nodiscard]] std::vector<ChunkRange> split_chunks(std::uint64_t elements, std::uint64_t chunks);

// The stream counts a timed run measures: 1, 2, 4, 8 and the selected one, each at most `chunks`,
// in increasing order without repeats.
[[nodiscard]] std::vector<std::uint32_t> measured_stream_counts(std::uint32_t selected,
                                                                std::uint64_t chunks);

// ---- Copies -----------------------------------------------------------------------------------

// The copy sweep's sizes: 4 KiB, 16 KiB, ... (×4) up to `top` (1 GiB at most), each a power of
// four, and `top` itself when it is not one.
inline constexpr std::uint64_t kCopySweepSmallest = 4096;
inline constexpr std::uint64_t kCopySweepLargest = 1ull << 30;
[[nodiscard]] std::vector<std::uint64_t> copy_sweep_sizes(std::uint64_t top);

struct CopyPoint {
  std::uint64_t bytes = 0;
  double ms = 0;  // median of the repeats
  [[nodiscard]] double bytes_per_second() const {
    return ms > 0 ? static_cast<double>(bytes) / (ms * 1e-3) : 0;
  }
};

// A copy costs a fixed latency plus bytes over a bandwidth: t(b) = latency + b / bandwidth. The
// latency is the smallest copy's time, the bandwidth the best rate measured; the knee is where
// both parts are equal (b = latency · bandwidth): below it a copy is latency bound (doubling the
// bytes barely changes the time), above it bandwidth bound (the time doubles with the bytes), and
// there it reaches half the bandwidth.
struct CopyKnee {
  double latency_ms = 0;
  double bandwidth = 0;  // bytes per second
  double knee_bytes = 0;
};
[[nodiscard]] std::optional<CopyKnee> copy_knee(std::span<const CopyPoint> points);

// ---- The link's ceiling ------------------------------------------------------------------------

// What the link between host and device can carry in one direction, from its generation and
// width: PCIe 1 and 2 carry 8 bits in 10 (2.5 and 5 GT/s), PCIe 3 and later 128 in 130 (8, 16, 32,
// 64 GT/s). Known only where the device reports it.
struct LinkCeiling {
  bool known = false;
  double transfers_per_second = 0;  // per lane: 32e9 for 32 GT/s
  int width = 0;                    // lanes
  int generation = 0;               // PCIe generation, 0 when unknown
  double bytes_per_second = 0;      // one direction
  std::string source;               // where it was read, or why it is unknown
  [[nodiscard]] std::string describe() const;
};
// From the text of sysfs's current_link_speed ("32.0 GT/s PCIe") and current_link_width ("16").
[[nodiscard]] LinkCeiling link_ceiling_from_sysfs(std::string_view speed, std::string_view width);
// Reads /sys/bus/pci/devices/<bus id>/current_link_{speed,width} for the device's PCI bus id
// ("0000:3B:00.0" as cudaDeviceGetPCIBusId writes it).
[[nodiscard]] LinkCeiling read_link_ceiling(const std::string& pci_bus_id);

// ---- The pipeline ------------------------------------------------------------------------------

enum class Stage : std::uint8_t { kCopyIn, kKernel, kCopyOut };
[[nodiscard]] std::string_view to_string(Stage stage);

// Which stream an operation went to: one the pipeline created (its index in `stream`), the copy
// stream of Schedule::kCopyStream, or one of the two default streams. The extra streams carry the
// index one past the created ones, so that every stream has a distinct index.
enum class Queue : std::uint8_t { kCreated, kCopyStream, kLegacyDefault, kPerThreadDefault };
[[nodiscard]] std::string_view to_string(Queue queue);

// The chunk of an operation that belongs to no chunk (the default-stream kernel).
inline constexpr std::uint32_t kNoChunk = 0xFFFFFFFFu;

// One operation of the pipeline: its chunk, stream and stage, from when it started to when it
// ended, in milliseconds since the pipeline began, and its place in the issue order.
struct TimelineOp {
  std::uint32_t chunk = 0;
  std::uint32_t stream = 0;
  Stage stage = Stage::kCopyIn;
  double start_ms = 0;
  double end_ms = 0;
  Queue queue = Queue::kCreated;
  std::uint32_t issue = 0;  // 0 for the first operation issued
  [[nodiscard]] double duration_ms() const { return end_ms - start_ms; }
  [[nodiscard]] bool on_default_stream() const {
    return queue == Queue::kLegacyDefault || queue == Queue::kPerThreadDefault;
  }
};

// One operation as the host issues it: what the GPU code runs and the model schedules, in issue
// order. `wait_for` is the index (in the plan) of an operation whose end this one waits for through
// an event (cudaStreamWaitEvent), or -1.
struct PlannedOp {
  std::uint32_t chunk = 0;
  std::uint32_t stream = 0;
  Stage stage = Stage::kCopyIn;
  Queue queue = Queue::kCreated;
  int wait_for = -1;
};
[[nodiscard]] std::vector<PlannedOp> plan_pipeline(std::uint64_t chunks, std::uint32_t streams,
                                                   Schedule schedule);

struct StageTimes {
  double copy_in_ms = 0;
  double kernel_ms = 0;
  double copy_out_ms = 0;
};

// What a pipeline could have taken and what it did. The serial sum is every operation one after
// another (one stream, nothing overlapped); the ideal bound is the busiest of the three engines
// (copy in, compute, copy out) working without a pause, which no schedule can beat when each
// engine runs one operation at a time.
struct PipelineSummary {
  double total_ms = 0;   // first start to last end
  double serial_ms = 0;  // sum of every operation
  double ideal_ms = 0;   // the longest of the three stages' sums
  // The time overlap saved, as a share of what it could have saved: (serial - total) / (serial -
  // ideal), 0 without overlap, 1 at the ideal bound; clamped to [0, 1] (timing noise can push a
  // serial run a hair past its own sum).
  double overlap_won = 0;
  // How far from the ideal: total / ideal (1 is perfect).
  double over_ideal = 0;
};
[[nodiscard]] StageTimes stage_sums(std::span<const TimelineOp> ops);
[[nodiscard]] PipelineSummary summarize_pipeline(std::span<const TimelineOp> ops);
[[nodiscard]] double overlap_won(double total_ms, double serial_ms, double ideal_ms);

// The schedule a GPU with one copy engine per direction gives a pipeline issued chunk by chunk
// (copy in, kernel, copy out on stream chunk % streams), each engine running one operation at a
// time in issue order, a kernel filling the whole GPU: an operation starts when its stream's
// previous operation and its engine's previous operation have both ended. With `overlap` false
// (pageable memory: the copy waits for the host to stage it) everything runs one after another.
// `per_chunk[c]` holds chunk c's three durations.
[[nodiscard]] std::vector<TimelineOp> model_pipeline(std::span<const StageTimes> per_chunk,
                                                     std::uint32_t streams, bool overlap);

// CUDA_DEVICE_MAX_CONNECTIONS's default: the hardware work queues (Hyper-Q, compute capability
// 3.5 and later) that streams are spread over; two streams sharing a queue serialise their issue.
inline constexpr std::uint32_t kDefaultConnections = 8;
// The connections the CUDA runtime will use: CUDA_DEVICE_MAX_CONNECTIONS from the environment
// when it holds a number from 1 to 32, else the default. `text` null: the variable is unset.
[[nodiscard]] std::uint32_t connections_from(const char* text);

// The model of a schedule, a small scheduler over the plan's graph. In issue order, an operation
// starts at the latest of: its stream's previous operation's end; its engine's previous operation's
// end (one copy engine per direction and one compute engine, each running its operations in issue
// order, a kernel filling the GPU); the start of the previous operation in its hardware queue
// (stream s feeds queue s % connections, the copy and default streams queue `streams` %
// connections; a queue hands its operations out in order, so one waiting for its stream blocks
// those behind it: the false dependency); the end of the operation it waits for by event; and, for
// the legacy default stream with blocking streams, the barrier: the default-stream kernel starts
// after every operation issued before it ended, and every operation issued after it starts after
// it ended. `marker_ms` is the default-stream kernel's duration. With `overlap` false (pageable
// memory) everything runs one after another.
struct ScheduleModel {
  std::uint32_t connections = kDefaultConnections;
  bool overlap = true;
  double marker_ms = 0;
};
[[nodiscard]] std::vector<TimelineOp> model_schedule(std::span<const StageTimes> per_chunk,
                                                     std::uint32_t streams, Schedule schedule,
                                                     const ScheduleModel& model);

// The default-stream kernel of a timeline, or null.
[[nodiscard]] const TimelineOp* default_stream_op(std::span<const TimelineOp> ops);
// Whether the default-stream kernel of `ops` stands as a barrier: it starts after every operation
// issued before it ended, and nothing issued after it starts before it ends (a microsecond of
// slack for the events' resolution). The first operation that breaks it, described, if not; none
// when there is no default-stream kernel.
[[nodiscard]] std::optional<std::string> barrier_violation(std::span<const TimelineOp> ops);

// Events tell when a stream reached an operation and when it ended, not when an engine picked it
// up: an operation queued behind another on the same engine seems to start early. With one engine
// per stage running one operation at a time, the operation really started at the later of its
// recorded start and the end of the operation the engine ran before it (ordered by end). Returns
// the ops with their starts so corrected.
[[nodiscard]] std::vector<TimelineOp> start_on_engines(std::vector<TimelineOp> ops);

// Whether `ops` keep each chunk's order (copy in ends before its kernel starts, the kernel before
// its copy out) and every interval is well formed; the first violation, described, if not.
[[nodiscard]] std::optional<std::string> timeline_order_violation(std::span<const TimelineOp> ops);
// Milliseconds during which an operation of one stream ran while an operation of another stream
// was running (copies under kernels, a copy in under a copy out): 0 for a pipeline that never
// overlapped.
[[nodiscard]] double cross_stream_overlap_ms(std::span<const TimelineOp> ops);

// The timeline as the view draws it: a lane per engine (copies in, kernels, copies out), then a
// lane per stream, each holding its operations (indices into the ops) in time order; the copy
// stream and a default stream, when the run used one, get a lane of their own after the created
// streams ("copy stream", "legacy default stream", "per-thread default stream").
struct TimelineLane {
  std::string label;
  std::vector<std::size_t> ops;
};
[[nodiscard]] std::vector<TimelineLane> timeline_lanes(std::span<const TimelineOp> ops,
                                                       std::uint32_t streams);

// The timeline as CSV (one row per operation) and as JSON (the summary and the operations).
[[nodiscard]] std::string timeline_csv(std::span<const TimelineOp> ops);
// A default-stream kernel's row has no chunk, and its stream is named ("legacy", "per-thread");
// the copy stream is "copy".
[[nodiscard]] std::string timeline_json(std::span<const TimelineOp> ops, std::uint32_t streams,
                                        std::string_view memory, bool modelled,
                                        Schedule schedule = Schedule::kDepthFirst);

// ---- Mini-batches ------------------------------------------------------------------------------

struct BatchPoint {
  std::uint64_t batch = 0;
  double device_samples_per_second = 0;  // copies included
  double cpu_samples_per_second = 0;
};
// The smallest batch from which the device processes more samples per second than the CPU, and
// stays ahead; none if it never overtakes it.
[[nodiscard]] std::optional<std::uint64_t> batch_crossover(std::span<const BatchPoint> points);

// ---- The kernel --------------------------------------------------------------------------------

// The kernel's rounds in the lesson's range, and what its work is for the watchdog and the rates.
inline constexpr std::uint32_t kMaxRounds = 1u << 16;
[[nodiscard]] inline double transform_flops(std::uint64_t elements, std::uint32_t rounds) {
  return 2.0 * static_cast<double>(elements) * rounds;
}

// The CPU reference of lessons/07_moving_data/kernels/moving_data.cuh's transform_chunk.
void transform_reference(std::span<const float> in, std::span<float> out, std::uint32_t rounds);

struct MovingDataCheck {
  bool passed = true;
  std::uint64_t wrong = 0;
  std::uint64_t first_wrong = 0;
  float expected = 0;
  float actual = 0;
  [[nodiscard]] std::string describe() const;
};
// Every element of `out` against the reference of `in`. Both sides compute the same fmaf chain, so
// the results agree to the last bit; the check still allows 2 ulp so that a host maths library
// without a fused instruction does not fail it.
MovingDataCheck check_transform(std::span<const float> in, std::span<const float> out,
                                std::uint32_t rounds);

}  // namespace tl::lessons
