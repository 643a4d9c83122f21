#include "moving_data_lesson.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "compute/lessons/parameterized_lesson.hpp"
#include "core/format.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/07_moving_data/moving_data.hpp"

namespace tl::compute {
namespace {

using lessons::HostMemory;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"bytes",
       "bytes",
       lessons::ParamKind::kCount,
       "64Mi",
       {},
       "Bytes of floats the pipeline copies in, transforms and copies out (64Mi = 64 MiB)"},
      {"chunks",
       "chunks",
       lessons::ParamKind::kCount,
       "16",
       {},
       "Pieces the data is cut into: each is copied in, transformed and copied out on its own"},
      {"streams",
       "streams",
       lessons::ParamKind::kCount,
       "4",
       {},
       "Streams the chunks take turns on (chunk c on stream c mod S); the timeline drawn. A timed "
       "run also measures 1, 2, 4 and 8"},
      {"memory",
       "host memory",
       lessons::ParamKind::kChoice,
       "pinned",
       {"pageable", "pinned", "managed"},
       "pageable: ordinary memory; pinned: page-locked (pin_memory=True); managed: unified "
       "memory moved by prefetches"},
      {"schedule", "schedule", lessons::ParamKind::kChoice, "depth-first",
       lessons::schedule_names(),
       "How the operations are issued. depth-first: chunk by chunk; breadth-first: every copy in, "
       "then every kernel, then every copy out; legacy-default: blocking streams and a kernel on "
       "the legacy default stream halfway (a barrier); legacy-nonblocking: the same with "
       "cudaStreamNonBlocking streams; per-thread-default: the kernel on the per-thread default "
       "stream; copy-stream: copies in on a stream of their own, each kernel waiting for its "
       "copy's event"},
      {"work",
       "kernel work",
       lessons::ParamKind::kCount,
       "0",
       {},
       "Multiply-adds per element in the kernel; 0: as many as make a chunk's kernel about as "
       "long as its copy in",
       {},
       true},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "256",
       {},
       "Threads in each block of the kernel",
       {},
       true},
      {"copy_top",
       "largest copy",
       lessons::ParamKind::kCount,
       "1Gi",
       {},
       "The copy sweep's largest size (from 4 KiB, ×4 each step; at most 1 GiB)",
       {},
       true},
  };
  return kSpecs;
}

std::string format_ratio(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

TimingStats single(double ms) {
  const double samples[] = {ms};
  return summarize_timings(samples);
}

class MovingDataLesson final : public ParameterizedLesson {
 public:
  MovingDataLesson()
      : ParameterizedLesson({.info = lessons::kMovingDataInfo,
                             .specs = specs(),
                             .size_params = {"bytes"},
                             // The pipeline loops over its chunks with the grid it has.
                             .blocks = BlockSweepShape::kOneDimension}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    lessons::MovingDataParams p;
    auto bytes = reader.count("bytes");
    if (!bytes) return bytes.error();
    p.bytes = *bytes;
    auto chunks = reader.count("chunks");
    if (!chunks) return chunks.error();
    p.chunks = *chunks;
    auto streams = reader.count("streams");
    if (!streams) return streams.error();
    if (*streams > lessons::kMaxStreams) {
      return invalid_argument("streams must be between 1 and " +
                              std::to_string(lessons::kMaxStreams) + ", not " +
                              std::to_string(*streams) + ".");
    }
    p.streams = static_cast<std::uint32_t>(*streams);
    auto memory = reader.choice("memory");
    if (!memory) return memory.error();
    auto parsed = lessons::parse_host_memory(*memory);
    if (!parsed) return parsed.error();
    p.memory = *parsed;
    auto schedule = reader.choice("schedule");
    if (!schedule) return schedule.error();
    auto parsed_schedule = lessons::parse_schedule(*schedule);
    if (!parsed_schedule) return parsed_schedule.error();
    p.schedule = *parsed_schedule;
    auto work = reader.count("work");
    if (!work) return work.error();
    if (*work > lessons::kMaxRounds) {
      return invalid_argument("work must be at most " + std::to_string(lessons::kMaxRounds) +
                              " multiply-adds per element (0: balance the kernel with a copy).");
    }
    p.rounds = static_cast<std::uint32_t>(*work);
    auto block = reader.dim3("block");
    if (!block) return block.error();
    if (block->y != 1 || block->z != 1) {
      return invalid_argument("the transform kernel takes 1D blocks, not " + to_string(*block) +
                              ".");
    }
    p.block = block->x;
    auto top = reader.count("copy_top");
    if (!top) return top.error();
    if (*top < lessons::kCopySweepSmallest || *top > lessons::kCopySweepLargest) {
      return invalid_argument("copy_top must be between 4Ki and 1Gi bytes, not " +
                              std::to_string(*top) + ".");
    }
    TL_RETURN_IF_ERROR(lessons::validate_moving_data(p));
    params_ = p;
    copy_top_ = *top;
    return Status::ok();
  }

  // The traced launch is the kernel once over all the data (who computes which element does not
  // depend on the chunks; when they run is the timeline's business), so the window's grid, its
  // idle threads and the mapping view describe one launch.
  [[nodiscard]] LaunchConfig launch_config() const override {
    return chunk_config(params_.elements(), params_.block);
  }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    return ThreadCoverage::linear(params_.elements());
  }
  [[nodiscard]] DataShape data_shape() const override { return {1, params_.elements()}; }
  [[nodiscard]] lessons::ParamValues emulator_defaults() const override {
    // Every part in one timed run: sizes the emulator finishes in a few seconds.
    return {{"bytes", "256Ki"}, {"chunks", "8"}, {"copy_top", "1Mi"}};
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return "transform_chunk";
  }
  [[nodiscard]] std::optional<KernelWork> longest_kernel() const override {
    // The managed-memory kernel runs over all the data at once with the chosen work ("auto" is at
    // most what one copy takes, counted here as 1024 rounds).
    const std::uint32_t rounds = params_.rounds == 0 ? 1024 : params_.rounds;
    return KernelWork{"transform_chunk",
                      lessons::transform_flops(params_.elements(), rounds),
                      8.0 * static_cast<double>(params_.elements()),
                      {}};
  }

  [[nodiscard]] std::vector<LessonPreset> presets() const override {
    return {
        {"pageable, 4 streams",
         "The same pipeline from pageable memory: the copies wait for the host, nothing overlaps",
         {{"memory", "pageable"}, {"streams", "4"}}},
        {"one stream",
         "Every chunk on one stream: each copy waits for the kernel before it",
         {{"streams", "1"}}},
        {"managed", "Unified memory: prefetches instead of copies", {{"memory", "managed"}}},
        {"legacy default stream",
         "Blocking streams and one kernel on the legacy default stream halfway: a barrier",
         {{"schedule", "legacy-default"}}},
        {"copy stream",
         "Copies in on a stream of their own; each kernel waits for its copy's event",
         {{"schedule", "copy-stream"}}}};
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    MovingDataRequest request;
    request.params = params_;
    request.cancel = cancel;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    request.copy_sweep_top = copy_top_;
    if (!device.is_gpu()) {
      // The emulator runs the dense layer's threads on the CPU: a small layer and few batches.
      request.dense_in = 64;
      request.dense_out = 64;
      request.batch_sizes = {1, 4, 16, 64, 256};
    }
    auto report = run_moving_data(device, request);
    if (!report) return report.error();
    return to_lesson_report(std::move(*report));
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TracedLaunch traced;
    traced.shape = data_shape();
    traced.config = launch_config();
    auto check = trace_moving_data(device, params_, sink);
    if (!check) return check.error();
    traced.check = LessonCheck{check->passed, check->describe()};
    return traced;
  }

  [[nodiscard]] std::string size_label() const override { return "bytes"; }
  [[nodiscard]] lessons::ParamValues values_for_size(std::uint64_t size) const override {
    lessons::ParamValues v = ParameterizedLesson::values_for_size(size);
    // A size sweep times the pipeline at each size; the copy sweep goes up to the same size, so
    // the points do not each repeat a sweep up to 1 GiB.
    v["copy_top"] =
        std::to_string(std::clamp(size, lessons::kCopySweepSmallest, lessons::kCopySweepLargest));
    return v;
  }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    const std::uint64_t top = device.is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 22);
    // Input and output on the device, at most half of what is free.
    const std::uint64_t fits = device.info().global_memory_free / 4;
    const std::uint64_t bottom = std::max<std::uint64_t>(1 << 16, 4 * params_.chunks);
    return size_sweep(bottom, std::max(bottom, std::min(top, fits)), 1);
  }

 private:
  static LessonReport to_lesson_report(MovingDataReport r) {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const char* where = r.on_gpu ? "" : " (emulated: host memcpy)";
    // Each copy series at its largest size, where the link's bandwidth shows.
    for (const CopySeries& s : r.copies) {
      if (s.points.empty()) continue;
      const lessons::CopyPoint& last = s.points.back();
      report.rows.push_back({{TimingRole::kCopy, s.variant()},
                             std::string("copy ") + format_bytes(static_cast<double>(last.bytes)) +
                                 (s.to_device ? " host → device" : " device → host") + ", " +
                                 (s.pinned ? "pinned" : "pageable") + where,
                             single(last.ms),
                             static_cast<double>(last.bytes),
                             0,
                             false});
    }
    if (!r.many_small.empty()) {
      const double bytes = static_cast<double>(r.small_copy_bytes * r.small_copies);
      report.rows.push_back({{TimingRole::kCopy, "many-small"},
                             std::to_string(r.small_copies) + " copies of " +
                                 format_bytes(static_cast<double>(r.small_copy_bytes)) + where,
                             r.many_small,
                             bytes,
                             0,
                             false});
      report.rows.push_back({{TimingRole::kCopy, "one-batched"},
                             "the same bytes as one copy" + std::string(where),
                             r.one_batched,
                             bytes,
                             0,
                             false});
    }
    const double moved = 2.0 * static_cast<double>(r.params.bytes);
    const double flops = lessons::transform_flops(r.params.elements(), r.params.rounds);
    auto pipeline_row = [&](const PipelineRun& run) {
      const TimingRole role = run.memory == HostMemory::kPageable ? TimingRole::kEndToEndPageable
                                                                  : TimingRole::kEndToEndPinned;
      const std::string memory(lessons::to_string(run.memory));
      std::string name = std::string(r.on_gpu ? "pipeline, " : "modelled pipeline, ") +
                         std::to_string(run.streams) + " stream(s), " + memory;
      if (run.schedule != lessons::Schedule::kDepthFirst) {
        name += ", " + std::string(lessons::to_string(run.schedule));
      }
      report.rows.push_back({{role, pipeline_variant(run.streams) +
                                        (run.memory == HostMemory::kManaged ? "-managed" : "")},
                             name,
                             run.total,
                             moved,
                             flops,
                             true});
      report.notes.push_back(describe_pipeline(run));
    };
    for (const PipelineRun& run : r.pipelines) pipeline_row(run);
    if (r.pageable_pipeline) pipeline_row(*r.pageable_pipeline);
    if (r.managed.available) {
      const double bytes = static_cast<double>(r.managed.bytes) * 2;
      report.rows.push_back({{TimingRole::kKernel, "managed-first-touch"},
                             "kernel over managed memory, pages on the host",
                             r.managed.first_touch,
                             bytes,
                             0,
                             true,
                             true});
      report.rows.push_back({{TimingRole::kKernel, "managed-prefetched"},
                             "kernel over managed memory, prefetched",
                             r.managed.prefetched,
                             bytes,
                             0,
                             true,
                             true});
      report.notes.push_back("page faults: " + r.managed.faults);
    } else if (!r.managed.absent.empty()) {
      report.notes.push_back(r.managed.absent);
    }
    report.notes.push_back(r.link.describe());
    report.notes.push_back(
        "hardware queues: " + std::to_string(r.connections) + " (CUDA_DEVICE_MAX_CONNECTIONS" +
        (std::getenv("CUDA_DEVICE_MAX_CONNECTIONS") == nullptr ? ", unset: the default" : "") +
        "); streams beyond that share a queue, and a queue hands out its operations in issue "
        "order" +
        (r.on_gpu ? "" : " (the model's assumption: the emulator has no queues)"));
    if (r.on_gpu) {
      report.notes.push_back(
          std::to_string(r.copy_engines) + " copy engine(s): copies in and out " +
          (r.copy_engines >= 2 ? "can run at the same time" : "take turns on one engine"));
    }
    for (const CopySeries& s : r.copies) {
      if (!s.knee) continue;
      report.notes.push_back("knee of " + s.variant() + ": latency " +
                             format_milliseconds(s.knee->latency_ms) + ", bandwidth " +
                             format_ratio("%.2f", s.knee->bandwidth / 1e9) + " GB/s, knee at " +
                             format_bytes(s.knee->knee_bytes));
    }
    if (!r.batches.points.empty()) {
      std::string text = "mini-batches of a " + std::to_string(r.batches.in) + " → " +
                         std::to_string(r.batches.out) + " dense layer, samples/s (" +
                         (r.on_gpu ? "GPU" : "emulated") + " with copies / CPU):";
      for (const auto& p : r.batches.points) {
        text += " " + std::to_string(p.batch) + ": " +
                format_ratio("%.3g", p.device_samples_per_second) + " / " +
                format_ratio("%.3g", p.cpu_samples_per_second) + ";";
      }
      text += r.batches.crossover ? " the device overtakes the CPU from batch " +
                                        std::to_string(*r.batches.crossover)
                                  : " the device never overtakes the CPU here";
      report.notes.push_back(text);
    }
    if (!r.pinned_unavailable.empty()) report.notes.push_back(r.pinned_unavailable);
    for (const std::string& note : r.notes) report.notes.push_back(note);
    if (!r.on_gpu) {
      report.notes.push_back(
          "MODEL, not a measurement: the emulator has no streams or copy engines; its timelines "
          "schedule the stage times it measured as a GPU with one copy engine per direction "
          "would");
    }
    report.check = LessonCheck{r.check.passed, r.check.describe()};
    report.attachment = std::make_shared<MovingDataAttachment>(std::move(r));
    return report;
  }

  lessons::MovingDataParams params_;
  std::uint64_t copy_top_ = lessons::kCopySweepLargest;
};

}  // namespace

std::vector<LessonExport> MovingDataAttachment::exports() const {
  std::vector<LessonExport> files;
  if (const PipelineRun* run = report.selected_pipeline()) {
    files.push_back({"timeline.csv", lessons::timeline_csv(run->ops)});
    files.push_back({"timeline.json",
                     lessons::timeline_json(run->ops, run->streams, lessons::to_string(run->memory),
                                            run->modelled, run->schedule)});
  }
  std::string copies = "direction,memory,bytes,median_ms,bytes_per_second\n";
  for (const CopySeries& s : report.copies) {
    for (const lessons::CopyPoint& p : s.points) {
      copies += std::string(s.to_device ? "to-device," : "to-host,") +
                (s.pinned ? "pinned," : "pageable,") + std::to_string(p.bytes) + "," +
                format_ratio("%.6f", p.ms) + "," + format_ratio("%.6g", p.bytes_per_second()) +
                "\n";
    }
  }
  files.push_back({"copies.csv", copies});
  return files;
}

std::string pipeline_variant(std::uint32_t streams) {
  return "streams-" + std::to_string(streams);
}

std::string describe_pipeline(const PipelineRun& run) {
  const lessons::PipelineSummary& s = run.summary;
  std::string text =
      std::string(run.modelled ? "MODEL " : "measured ") + std::to_string(run.streams) +
      " stream(s), " + std::string(lessons::to_string(run.memory)) + ", " +
      std::string(lessons::to_string(run.schedule)) + ": total " + format_milliseconds(s.total_ms) +
      ", serial sum " + format_milliseconds(s.serial_ms) + ", ideal bound " +
      format_milliseconds(s.ideal_ms) + " (" + format_ratio("%.2f", s.over_ideal) +
      "x of it), overlap won " + format_ratio("%.0f", s.overlap_won * 100) +
      "% of what could be won";
  if (const lessons::TimelineOp* marker = lessons::default_stream_op(run.ops)) {
    // Whether the default-stream kernel stood as a barrier is read off this run's timeline, not
    // assumed from the schedule.
    const auto broken = lessons::barrier_violation(run.ops);
    text += "; the " + std::string(lessons::to_string(marker->queue)) +
            " default-stream kernel ran from " + format_milliseconds(marker->start_ms) + " to " +
            format_milliseconds(marker->end_ms) + ": " +
            (broken ? "not a barrier (" + *broken + ")"
                    : "a barrier (everything issued before it had ended, nothing issued after it "
                      "had started)");
  }
  return text;
}

std::unique_ptr<Lesson> make_moving_data_lesson() {
  return std::make_unique<MovingDataLesson>();
}

}  // namespace tl::compute
