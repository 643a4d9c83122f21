// Lesson 7's model: the pipeline's arithmetic (serial sum, ideal bound, overlap won), the modelled
// schedule, the correction of event times for engine queueing, the copy knee, the link ceiling
// from sysfs text, the crossover, the chunks and the refusals of bad input.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

#include "lessons/07_moving_data/moving_data.hpp"

namespace tl::lessons {
namespace {

std::vector<StageTimes> equal_chunks(std::size_t chunks, StageTimes t) {
  return std::vector<StageTimes>(chunks, t);
}

TEST(MovingDataModel, OneStreamIsTheSerialSum) {
  const auto ops = model_pipeline(equal_chunks(4, {1.0, 2.0, 1.0}), 1, true);
  const PipelineSummary s = summarize_pipeline(ops);
  EXPECT_DOUBLE_EQ(s.serial_ms, 16.0);
  EXPECT_DOUBLE_EQ(s.total_ms, 16.0);
  EXPECT_DOUBLE_EQ(s.ideal_ms, 8.0);  // the kernels: 4 × 2 ms
  EXPECT_DOUBLE_EQ(s.overlap_won, 0.0);
  EXPECT_DOUBLE_EQ(s.over_ideal, 2.0);
}

TEST(MovingDataModel, TwoStreamsOverlapCopiesWithKernels) {
  // Copy in 1, kernel 2, copy out 1, four chunks on two streams: the kernels run back to back from
  // t = 1 (the first copy in) to 9, the last copy out ends at 10.
  const auto ops = model_pipeline(equal_chunks(4, {1.0, 2.0, 1.0}), 2, true);
  const PipelineSummary s = summarize_pipeline(ops);
  EXPECT_DOUBLE_EQ(s.total_ms, 10.0);
  EXPECT_DOUBLE_EQ(s.serial_ms, 16.0);
  EXPECT_DOUBLE_EQ(s.ideal_ms, 8.0);
  EXPECT_DOUBLE_EQ(s.overlap_won, 6.0 / 8.0);
  EXPECT_GT(cross_stream_overlap_ms(ops), 0.0);
  EXPECT_FALSE(timeline_order_violation(ops).has_value());
}

TEST(MovingDataModel, PageableMemoryOverlapsNothingWhateverTheStreams) {
  const auto ops = model_pipeline(equal_chunks(8, {1.0, 1.0, 1.0}), 4, /*overlap=*/false);
  const PipelineSummary s = summarize_pipeline(ops);
  EXPECT_DOUBLE_EQ(s.total_ms, s.serial_ms);
  EXPECT_DOUBLE_EQ(s.overlap_won, 0.0);
  EXPECT_DOUBLE_EQ(cross_stream_overlap_ms(ops), 0.0);
}

TEST(MovingDataModel, EachEngineRunsOneOperationAtATime) {
  const auto ops = model_pipeline(equal_chunks(6, {1.5, 1.0, 0.5}), 3, true);
  for (Stage stage : {Stage::kCopyIn, Stage::kKernel, Stage::kCopyOut}) {
    std::vector<TimelineOp> on;
    for (const auto& op : ops) {
      if (op.stage == stage) on.push_back(op);
    }
    for (std::size_t i = 1; i < on.size(); ++i) EXPECT_GE(on[i].start_ms, on[i - 1].end_ms);
  }
  // Copies in are the busiest engine: 6 × 1.5 ms, plus the last chunk's kernel and copy out.
  EXPECT_DOUBLE_EQ(summarize_pipeline(ops).total_ms, 9.0 + 1.0 + 0.5);
}

TEST(MovingDataModel, OverlapWonIsAShareOfWhatCouldBeWon) {
  EXPECT_DOUBLE_EQ(overlap_won(10.0, 16.0, 8.0), 0.75);
  EXPECT_DOUBLE_EQ(overlap_won(8.0, 16.0, 8.0), 1.0);
  EXPECT_DOUBLE_EQ(overlap_won(16.2, 16.0, 8.0), 0.0) << "noise past the serial sum is no loss";
  EXPECT_DOUBLE_EQ(overlap_won(5.0, 5.0, 5.0), 0.0) << "one stage only: nothing to win";
}

TEST(MovingDataModel, EventStartsAreMovedBehindTheEnginesPreviousOperation) {
  // Two copies in on two streams, both reached at t = 0: the engine ran one, then the other.
  std::vector<TimelineOp> ops = {{0, 0, Stage::kCopyIn, 0.0, 1.0},
                                 {1, 1, Stage::kCopyIn, 0.0, 2.0}};
  const auto fixed = start_on_engines(ops);
  EXPECT_DOUBLE_EQ(fixed[0].start_ms, 0.0);
  EXPECT_DOUBLE_EQ(fixed[1].start_ms, 1.0);
  EXPECT_DOUBLE_EQ(fixed[1].end_ms, 2.0);
}

TEST(MovingDataModel, AnOutOfOrderTimelineIsNamed) {
  std::vector<TimelineOp> ops = {{0, 0, Stage::kCopyIn, 0.0, 2.0},
                                 {0, 0, Stage::kKernel, 1.0, 3.0}};
  const auto violation = timeline_order_violation(ops);
  ASSERT_TRUE(violation.has_value());
  EXPECT_NE(violation->find("chunk 0's kernel"), std::string::npos) << *violation;
}

TEST(MovingDataModel, LanesHoldEachOperationOnItsEngineAndItsStream) {
  const auto ops = model_pipeline(equal_chunks(4, {1.0, 1.0, 1.0}), 2, true);
  const auto lanes = timeline_lanes(ops, 2);
  ASSERT_EQ(lanes.size(), 5u);
  EXPECT_EQ(lanes[0].ops.size(), 4u);
  EXPECT_EQ(lanes[1].ops.size(), 4u);
  EXPECT_EQ(lanes[3].ops.size(), 6u);  // stream 0: chunks 0 and 2, three stages each
  EXPECT_EQ(lanes[3].label, "stream 0");
}

TEST(MovingDataModel, TimelineExportsNameTheirSource) {
  const auto ops = model_pipeline(equal_chunks(2, {1.0, 1.0, 1.0}), 2, true);
  const std::string csv = timeline_csv(ops);
  EXPECT_EQ(csv.rfind("chunk,stream,stage,start_ms,end_ms\n", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  const nlohmann::json modelled = nlohmann::json::parse(timeline_json(ops, 2, "pinned", true));
  EXPECT_EQ(modelled["source"], "model");
  EXPECT_EQ(modelled["memory"], "pinned");
  EXPECT_EQ(modelled["streams"], 2);
  ASSERT_EQ(modelled["ops"].size(), ops.size());
  EXPECT_EQ(modelled["ops"][0]["stage"], to_string(ops[0].stage));
  EXPECT_DOUBLE_EQ(modelled["ops"][0]["end_ms"].get<double>(), ops[0].end_ms);
  EXPECT_EQ(nlohmann::json::parse(timeline_json(ops, 2, "pinned", false))["source"], "gpu-events");
  // A memory name with a quote in it stays one JSON string.
  EXPECT_EQ(nlohmann::json::parse(timeline_json(ops, 2, "odd \"name\"", true))["memory"],
            "odd \"name\"");
}

TEST(MovingDataModel, CopyKneeIsLatencyTimesBandwidth) {
  // 10 µs fixed, 10 GB/s: t(b) = 0.01 ms + b / 1e10 s.
  std::vector<CopyPoint> points;
  for (std::uint64_t b : copy_sweep_sizes(1ull << 30)) {
    points.push_back({b, 0.01 + static_cast<double>(b) / 1e10 * 1e3});
  }
  const auto knee = copy_knee(points);
  ASSERT_TRUE(knee.has_value());
  EXPECT_NEAR(knee->latency_ms, 0.01 + 4096 / 1e7, 1e-12);
  EXPECT_NEAR(knee->bandwidth, 1e10, 1e10 * 1e-3);
  EXPECT_NEAR(knee->knee_bytes, knee->latency_ms * 1e-3 * knee->bandwidth, 1e-6);
  EXPECT_GT(knee->knee_bytes, 100e3);
  EXPECT_LT(knee->knee_bytes, 200e3);
}

TEST(MovingDataModel, CopySweepGoesByFoursAndEndsAtItsTop) {
  const auto sizes = copy_sweep_sizes(1ull << 30);
  EXPECT_EQ(sizes.front(), 4096u);
  EXPECT_EQ(sizes.back(), 1ull << 30);
  EXPECT_EQ(sizes.size(), 10u);
  const auto capped = copy_sweep_sizes(5'000'000);
  EXPECT_EQ(capped.back(), 5'000'000u);
  EXPECT_TRUE(copy_sweep_sizes(1000).empty());
}

TEST(MovingDataModel, LinkCeilingFromSysfs) {
  const LinkCeiling gen5 = link_ceiling_from_sysfs("32.0 GT/s PCIe\n", "16\n");
  ASSERT_TRUE(gen5.known);
  EXPECT_EQ(gen5.generation, 5);
  EXPECT_NEAR(gen5.bytes_per_second, 32e9 * 16 * 128.0 / 130.0 / 8.0, 1.0);
  const LinkCeiling gen2 = link_ceiling_from_sysfs("5.0 GT/s PCIe", "8");
  EXPECT_EQ(gen2.generation, 2);
  EXPECT_NEAR(gen2.bytes_per_second, 5e9 * 8 * 0.8 / 8.0, 1.0);
  const LinkCeiling unknown = link_ceiling_from_sysfs("Unknown", "0");
  EXPECT_FALSE(unknown.known);
  EXPECT_NE(unknown.describe().find("unknown"), std::string::npos);
  EXPECT_FALSE(read_link_ceiling("ffff:ff:ff.f").known) << "no such device: said, not guessed";
}

TEST(MovingDataModel, CrossoverIsWhereTheDeviceStaysAhead) {
  const std::vector<BatchPoint> points = {
      {1, 10, 100}, {4, 200, 100}, {16, 50, 100}, {64, 300, 100}, {256, 900, 100}};
  EXPECT_EQ(batch_crossover(points), 64u);
  const std::vector<BatchPoint> never = {{1, 10, 100}, {4, 20, 100}};
  EXPECT_FALSE(batch_crossover(never).has_value());
}

TEST(MovingDataModel, ChunksCoverTheDataOnce) {
  const auto chunks = split_chunks(10, 4);
  ASSERT_EQ(chunks.size(), 4u);
  EXPECT_EQ(chunks[0].count, 3u);
  EXPECT_EQ(chunks[1].count, 3u);
  EXPECT_EQ(chunks[2].count, 2u);
  EXPECT_EQ(chunks[3].begin + chunks[3].count, 10u);
  EXPECT_EQ(measured_stream_counts(4, 16), (std::vector<std::uint32_t>{1, 2, 4, 8}));
  EXPECT_EQ(measured_stream_counts(3, 4), (std::vector<std::uint32_t>{1, 2, 3, 4}));
}

TEST(MovingDataModel, BadInputIsRefusedWithAReason) {
  MovingDataParams p;
  p.chunks = 0;
  EXPECT_NE(validate_moving_data(p).message().find("at least 1"), std::string::npos);
  p.chunks = 2;
  p.streams = 4;
  EXPECT_NE(validate_moving_data(p).message().find("must not exceed chunks"), std::string::npos);
  p = MovingDataParams{};
  EXPECT_TRUE(validate_moving_data(p).is_ok());
  p.bytes = 1ull << 40;
  const Status host = check_moving_data_memory(p, 64ull << 30, 0);
  EXPECT_EQ(host.error().kind, ErrorKind::kOutOfMemory);
  EXPECT_NE(host.message().find("host memory"), std::string::npos);
  const Status device = check_moving_data_memory(p, 0, 80ull << 30);
  EXPECT_NE(device.message().find("device memory"), std::string::npos);
  EXPECT_FALSE(parse_host_memory("paged").is_ok());
}

TEST(MovingDataModel, CheckFindsAWrongElement) {
  std::vector<float> in = {0.1f, 0.2f, -0.7f};
  std::vector<float> out(3);
  transform_reference(in, out, 5);
  EXPECT_TRUE(check_transform(in, out, 5).passed);
  out[1] += 1e-3f;
  const auto check = check_transform(in, out, 5);
  EXPECT_FALSE(check.passed);
  EXPECT_EQ(check.first_wrong, 1u);
}

TEST(MovingDataModel, TheReferenceStoppingAtItsFixedPointGivesEveryRoundsBits) {
  // Inputs across the float range, the lesson's [-1, 1) among them, and rounds past convergence.
  std::vector<float> in = {0.0f,  -1.0f, 0.999f, 0.5f,    1e-30f,    -3e38f,
                           3e38f, 7.25f, -0.3f,  1.0e10f, 0.4999999f};
  for (std::uint32_t rounds : {0u, 1u, 7u, 60u, 400u, 3000u}) {
    std::vector<float> fast(in.size());
    transform_reference(in, fast, rounds);
    for (std::size_t i = 0; i < in.size(); ++i) {
      float x = in[i];
      for (std::uint32_t r = 0; r < rounds; ++r) x = std::fmaf(x, 0.75f, 0.125f);
      EXPECT_EQ(std::bit_cast<std::uint32_t>(fast[i]), std::bit_cast<std::uint32_t>(x))
          << "input " << in[i] << ", " << rounds << " rounds";
    }
  }
}

// ---- Schedules: the plan the GPU issues and the model schedules -------------------------------

const TimelineOp& find_op(const std::vector<TimelineOp>& ops, std::uint32_t chunk, Stage stage) {
  for (const TimelineOp& op : ops) {
    if (op.chunk == chunk && op.stage == stage) return op;
  }
  ADD_FAILURE() << "no chunk " << chunk << " " << to_string(stage);
  return ops.front();
}

TEST(MovingDataSchedules, PlansIssueInTheirOrder) {
  const auto depth = plan_pipeline(3, 2, Schedule::kDepthFirst);
  ASSERT_EQ(depth.size(), 9u);
  EXPECT_EQ(depth[1].stage, Stage::kKernel);
  EXPECT_EQ(depth[3].chunk, 1u);
  EXPECT_EQ(depth[3].stream, 1u);
  const auto breadth = plan_pipeline(3, 2, Schedule::kBreadthFirst);
  ASSERT_EQ(breadth.size(), 9u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(breadth[i].stage, Stage::kCopyIn);
    EXPECT_EQ(breadth[i].chunk, i);
    EXPECT_EQ(breadth[3 + i].stage, Stage::kKernel);
    EXPECT_EQ(breadth[6 + i].stage, Stage::kCopyOut);
    EXPECT_EQ(breadth[6 + i].stream, i % 2);
  }
  // Halfway: after the first two of four chunks (six operations), on the stream one past.
  const auto legacy = plan_pipeline(4, 2, Schedule::kLegacyDefault);
  ASSERT_EQ(legacy.size(), 13u);
  EXPECT_EQ(legacy[6].queue, Queue::kLegacyDefault);
  EXPECT_EQ(legacy[6].chunk, kNoChunk);
  EXPECT_EQ(legacy[6].stream, 2u);
  EXPECT_EQ(plan_pipeline(4, 2, Schedule::kPerThreadDefault)[6].queue, Queue::kPerThreadDefault);
  const auto copy = plan_pipeline(2, 2, Schedule::kCopyStream);
  ASSERT_EQ(copy.size(), 6u);
  EXPECT_EQ(copy[0].queue, Queue::kCopyStream);
  EXPECT_EQ(copy[0].stream, 2u);
  EXPECT_EQ(copy[1].wait_for, 0);
  EXPECT_EQ(copy[4].wait_for, 3);
  EXPECT_EQ(copy[4].stream, 1u);
}

TEST(MovingDataSchedules, LegacyDefaultStreamWithBlockingStreamsIsABarrier) {
  // Eight chunks on four blocking streams, a 0.5 ms kernel on the legacy stream after chunk 3.
  const auto ops = model_schedule(equal_chunks(8, {1.0, 2.0, 1.0}), 4, Schedule::kLegacyDefault,
                                  {.marker_ms = 0.5});
  const TimelineOp* marker = default_stream_op(ops);
  ASSERT_NE(marker, nullptr);
  EXPECT_EQ(marker->queue, Queue::kLegacyDefault);
  EXPECT_FALSE(barrier_violation(ops).has_value()) << *barrier_violation(ops);
  for (const TimelineOp& op : ops) {
    if (op.issue < marker->issue) EXPECT_LE(op.end_ms, marker->start_ms);
    if (op.issue > marker->issue) EXPECT_GE(op.start_ms, marker->end_ms);
  }
  // Chunks 0-3 as a pipeline of their own: the kernels back to back from 1 to 9, the last copy out
  // ends at 10; the marker 10 to 10.5; chunks 4-7 the same again from 10.5.
  EXPECT_DOUBLE_EQ(marker->start_ms, 10.0);
  EXPECT_DOUBLE_EQ(summarize_pipeline(ops).total_ms, 20.5);
  EXPECT_FALSE(timeline_order_violation(ops).has_value());
}

TEST(MovingDataSchedules, NonBlockingStreamsAndThePerThreadStreamHaveNoBarrier) {
  const auto chunks = equal_chunks(8, {1.0, 2.0, 1.0});
  const auto barrier = model_schedule(chunks, 4, Schedule::kLegacyDefault, {.marker_ms = 0.5});
  for (Schedule schedule : {Schedule::kLegacyNonBlocking, Schedule::kPerThreadDefault}) {
    const auto ops = model_schedule(chunks, 4, schedule, {.marker_ms = 0.5});
    const TimelineOp* marker = default_stream_op(ops);
    ASSERT_NE(marker, nullptr);
    const auto violation = barrier_violation(ops);
    ASSERT_TRUE(violation.has_value()) << to_string(schedule);
    // Chunk 4's copy in, issued after the marker, runs before the marker (the compute engine's
    // order puts the marker after chunk 3's kernel, which ends at 9).
    EXPECT_DOUBLE_EQ(find_op(ops, 4, Stage::kCopyIn).start_ms, 4.0) << to_string(schedule);
    EXPECT_DOUBLE_EQ(marker->start_ms, 9.0) << to_string(schedule);
    EXPECT_LT(summarize_pipeline(ops).total_ms, summarize_pipeline(barrier).total_ms);
    EXPECT_FALSE(timeline_order_violation(ops).has_value());
  }
}

TEST(MovingDataSchedules, BreadthAndDepthFirstAgreeWithAQueuePerStream) {
  // A chunk per stream and a hardware queue per stream; uneven stages, so that any difference in
  // order would show.
  std::vector<StageTimes> chunks;
  for (int c = 0; c < 4; ++c) chunks.push_back({1.0 + 0.25 * c, 2.0 - 0.1 * c, 0.75});
  const auto depth = model_schedule(chunks, 4, Schedule::kDepthFirst, {});
  const auto breadth = model_schedule(chunks, 4, Schedule::kBreadthFirst, {});
  ASSERT_EQ(depth.size(), breadth.size());
  for (const TimelineOp& op : depth) {
    const TimelineOp& other = find_op(breadth, op.chunk, op.stage);
    EXPECT_DOUBLE_EQ(op.start_ms, other.start_ms) << op.chunk << " " << to_string(op.stage);
    EXPECT_DOUBLE_EQ(op.end_ms, other.end_ms);
  }
}

TEST(MovingDataSchedules, BreadthFirstKeepsEachStreamsOwnOrder) {
  // Two chunks per stream: breadth-first issues chunk 4's copy in on stream 0 before chunk 0's
  // kernel, and a stream runs its operations in issue order, so that kernel waits for it. A true
  // dependency (the stream's), not a false one.
  const auto ops = model_schedule(equal_chunks(8, {1.0, 1.0, 1.0}), 4, Schedule::kBreadthFirst, {});
  EXPECT_DOUBLE_EQ(find_op(ops, 0, Stage::kKernel).start_ms,
                   find_op(ops, 4, Stage::kCopyIn).end_ms);
  EXPECT_DOUBLE_EQ(find_op(ops, 0, Stage::kKernel).start_ms, 5.0);
  const auto depth = model_schedule(equal_chunks(8, {1.0, 1.0, 1.0}), 4, Schedule::kDepthFirst, {});
  EXPECT_DOUBLE_EQ(find_op(depth, 0, Stage::kKernel).start_ms, 1.0);
}

TEST(MovingDataSchedules, DepthFirstIssueIntoOneQueueIsTheFalseDependency) {
  const auto chunks = equal_chunks(4, {1.0, 1.0, 1.0});
  // A queue per stream: chunk 1's copy in follows chunk 0's on the copy engine, at 1.
  const auto hyper_q = model_schedule(chunks, 4, Schedule::kDepthFirst, {.connections = 8});
  EXPECT_DOUBLE_EQ(find_op(hyper_q, 1, Stage::kCopyIn).start_ms, 1.0);
  // One queue (CUDA_DEVICE_MAX_CONNECTIONS=1, or a Fermi GPU): it waits behind chunk 0's copy out,
  // which waits for chunk 0's kernel, though nothing in chunk 1 depends on either.
  const auto one_queue = model_schedule(chunks, 4, Schedule::kDepthFirst, {.connections = 1});
  EXPECT_DOUBLE_EQ(find_op(one_queue, 1, Stage::kCopyIn).start_ms, 2.0);
  EXPECT_DOUBLE_EQ(summarize_pipeline(hyper_q).total_ms, 6.0);
  EXPECT_DOUBLE_EQ(summarize_pipeline(one_queue).total_ms, 9.0);
  // Sixteen streams share eight queues: stream 11 queues behind stream 3, so chunk 11's copy in
  // waits for chunk 3's copy out to start (at 13, when kernel 3 ends) though the copy engine was
  // free from 11.
  const auto sixteen = model_schedule(equal_chunks(16, {1.0, 3.0, 1.0}), 16, Schedule::kDepthFirst,
                                      {.connections = 8});
  EXPECT_DOUBLE_EQ(find_op(sixteen, 10, Stage::kCopyIn).end_ms, 11.0);
  EXPECT_DOUBLE_EQ(find_op(sixteen, 3, Stage::kCopyOut).start_ms, 13.0);
  EXPECT_DOUBLE_EQ(find_op(sixteen, 11, Stage::kCopyIn).start_ms, 13.0);
  const auto sixteen_queues = model_schedule(equal_chunks(16, {1.0, 3.0, 1.0}), 16,
                                             Schedule::kDepthFirst, {.connections = 16});
  EXPECT_DOUBLE_EQ(find_op(sixteen_queues, 11, Stage::kCopyIn).start_ms, 11.0);
}

TEST(MovingDataSchedules, CopyStreamKeepsEachKernelAfterItsCopy) {
  // Copies in slower than kernels: the copy stream runs them back to back, each kernel waits for
  // its own copy's event and no more.
  const auto ops = model_schedule(equal_chunks(6, {2.0, 1.0, 1.0}), 3, Schedule::kCopyStream, {});
  for (std::uint32_t c = 0; c < 6; ++c) {
    const TimelineOp& in = find_op(ops, c, Stage::kCopyIn);
    EXPECT_EQ(in.queue, Queue::kCopyStream);
    EXPECT_EQ(in.stream, 3u);
    EXPECT_DOUBLE_EQ(in.start_ms, 2.0 * c);
    const TimelineOp& kernel = find_op(ops, c, Stage::kKernel);
    EXPECT_EQ(kernel.stream, c % 3);
    EXPECT_DOUBLE_EQ(kernel.start_ms, in.end_ms);
  }
  EXPECT_FALSE(timeline_order_violation(ops).has_value());
  EXPECT_DOUBLE_EQ(summarize_pipeline(ops).total_ms, 12.0 + 1.0 + 1.0);
}

TEST(MovingDataSchedules, PageableRunsOneAfterAnotherWhateverTheSchedule) {
  for (const std::string& name : schedule_names()) {
    const Schedule schedule = *parse_schedule(name);
    const auto ops = model_schedule(equal_chunks(4, {1.0, 1.0, 1.0}), 2, schedule,
                                    {.overlap = false, .marker_ms = 0.5});
    const PipelineSummary s = summarize_pipeline(ops);
    EXPECT_DOUBLE_EQ(s.total_ms, s.serial_ms) << name;
  }
}

TEST(MovingDataSchedules, ExtraStreamsGetLanesAndNamedRows) {
  const auto ops = model_schedule(equal_chunks(4, {1.0, 1.0, 1.0}), 2, Schedule::kLegacyDefault,
                                  {.marker_ms = 0.5});
  const auto lanes = timeline_lanes(ops, 2);
  ASSERT_EQ(lanes.size(), 6u);
  EXPECT_EQ(lanes[5].label, "legacy default stream");
  ASSERT_EQ(lanes[5].ops.size(), 1u);
  EXPECT_TRUE(ops[lanes[5].ops[0]].on_default_stream());
  EXPECT_EQ(lanes[1].ops.size(), 5u) << "the default-stream kernel is a kernel too";
  const std::string csv = timeline_csv(ops);
  EXPECT_NE(csv.find("\n,legacy,kernel,"), std::string::npos) << csv;
  const nlohmann::json json =
      nlohmann::json::parse(timeline_json(ops, 2, "pinned", true, Schedule::kLegacyDefault));
  EXPECT_EQ(json["schedule"], "legacy-default");
  EXPECT_TRUE(json["ops"][6]["chunk"].is_null());
  EXPECT_EQ(json["ops"][6]["stream"], "legacy");
  const auto copy = model_schedule(equal_chunks(2, {1.0, 1.0, 1.0}), 2, Schedule::kCopyStream, {});
  const auto copy_lanes = timeline_lanes(copy, 2);
  ASSERT_EQ(copy_lanes.size(), 6u);
  EXPECT_EQ(copy_lanes[5].label, "copy stream");
  EXPECT_EQ(copy_lanes[5].ops.size(), 2u);
}

TEST(MovingDataSchedules, NamesAndLimits) {
  EXPECT_EQ(schedule_names().size(), 6u);
  for (const std::string& name : schedule_names()) {
    auto parsed = parse_schedule(name);
    ASSERT_TRUE(parsed.is_ok()) << name;
    EXPECT_EQ(to_string(*parsed), name);
  }
  const auto bad = parse_schedule("depth");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.message().find("breadth-first"), std::string::npos) << bad.message();
  MovingDataParams p;
  p.chunks = 1;
  p.streams = 1;
  p.schedule = Schedule::kLegacyDefault;
  EXPECT_NE(validate_moving_data(p).message().find("2 chunks at least"), std::string::npos);
  p.schedule = Schedule::kCopyStream;
  EXPECT_TRUE(validate_moving_data(p).is_ok());
  EXPECT_EQ(connections_from(nullptr), kDefaultConnections);
  EXPECT_EQ(connections_from("1"), 1u);
  EXPECT_EQ(connections_from("32"), 32u);
  EXPECT_EQ(connections_from("33"), kDefaultConnections);
  EXPECT_EQ(connections_from("4x"), kDefaultConnections);
}

}  // namespace
}  // namespace tl::lessons
