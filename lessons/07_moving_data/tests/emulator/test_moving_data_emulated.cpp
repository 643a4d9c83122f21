// Lesson 7 on the CPU emulator: the whole run checks its output; its timelines are the model's
// (labelled so) and keep the model's arithmetic (one stream is the serial sum, the pageable run
// overlaps nothing, every total lies between the ideal bound and the serial sum); the copy series
// and the batches are there; bad input and refused pinned memory give messages and the lesson
// keeps working.

#include <gtest/gtest.h>

#include "compute/lessons/lesson_registry.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "forwarding_device.hpp"
#include "lessons/07_moving_data/moving_data.hpp"
#include "lessons/07_moving_data/moving_data_lesson.hpp"
#include "lessons/07_moving_data/moving_data_runner.hpp"

namespace tl::compute {
namespace {

using lessons::HostMemory;

MovingDataRequest small_request() {
  MovingDataRequest request;
  request.params.bytes = 256 << 10;
  request.params.chunks = 8;
  request.params.streams = 4;
  request.params.rounds = 3;
  request.repeats = 1;
  request.copy_sweep_top = 1 << 20;
  request.dense_in = 32;
  request.dense_out = 32;
  request.batch_sizes = {1, 4, 16};
  return request;
}

// Each schedule on the emulator: the output is right, the timeline is the model's and keeps each
// chunk's order; the legacy default stream on blocking streams stands as a barrier in every run,
// the non-blocking and per-thread ones in none (the model's stages are measured, but the barrier
// or its absence is the model's structure, not a timing).
TEST(MovingDataEmulated, EverySchedulesModelKeepsItsStructure) {
  auto device = make_emulator_device();
  for (const std::string& name : lessons::schedule_names()) {
    MovingDataRequest request = small_request();
    request.params.schedule = *lessons::parse_schedule(name);
    auto report = run_moving_data(*device, request);
    ASSERT_TRUE(report.is_ok()) << name << ": " << report.message();
    EXPECT_TRUE(report->check.passed) << name << ": " << report->check.describe();
    for (const PipelineRun& run : report->pipelines) {
      EXPECT_TRUE(run.modelled);
      EXPECT_EQ(run.schedule, request.params.schedule);
      EXPECT_FALSE(lessons::timeline_order_violation(run.ops).has_value()) << name;
      const lessons::TimelineOp* marker = lessons::default_stream_op(run.ops);
      EXPECT_EQ(marker != nullptr, lessons::has_default_stream_kernel(run.schedule)) << name;
      EXPECT_EQ(run.ops.size(), 3u * 8u + (marker != nullptr ? 1u : 0u)) << name;
      if (marker == nullptr) continue;
      // Every stage the model schedules lasts long enough here for the overlap to show.
      EXPECT_EQ(lessons::barrier_violation(run.ops).has_value(),
                run.schedule != lessons::Schedule::kLegacyDefault)
          << name << " on " << run.streams << " stream(s)";
    }
    ASSERT_TRUE(report->pageable_pipeline.has_value());
    EXPECT_EQ(report->pageable_pipeline->schedule, lessons::Schedule::kDepthFirst) << name;
  }
}

TEST(MovingDataEmulated, TheRunChecksItsOutputAndModelsItsTimelines) {
  auto device = make_emulator_device();
  auto report = run_moving_data(*device, small_request());
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->check.passed) << report->check.describe();
  ASSERT_EQ(report->pipelines.size(), 4u);  // 1, 2, 4, 8 streams
  for (const PipelineRun& run : report->pipelines) {
    EXPECT_TRUE(run.modelled) << "the emulator's timeline is a model, and says so";
    EXPECT_EQ(run.ops.size(), 3u * 8u);
    const auto& s = run.summary;
    EXPECT_LE(s.total_ms, s.serial_ms + 1e-9);
    EXPECT_GE(s.total_ms, s.ideal_ms - 1e-9);
    EXPECT_GE(s.overlap_won, 0.0);
    EXPECT_LE(s.overlap_won, 1.0);
    EXPECT_FALSE(lessons::timeline_order_violation(run.ops).has_value());
  }
  const PipelineRun& one = report->pipelines.front();
  EXPECT_EQ(one.streams, 1u);
  EXPECT_NEAR(one.summary.total_ms, one.summary.serial_ms, 1e-9);
  EXPECT_EQ(lessons::cross_stream_overlap_ms(one.ops), 0.0);
  ASSERT_TRUE(report->pageable_pipeline.has_value());
  EXPECT_EQ(report->pageable_pipeline->memory, HostMemory::kPageable);
  EXPECT_EQ(lessons::cross_stream_overlap_ms(report->pageable_pipeline->ops), 0.0)
      << "pageable copies overlap nothing";
  EXPECT_EQ(report->copies.size(), 4u);
  for (const CopySeries& s : report->copies) {
    EXPECT_EQ(s.points.size(), lessons::copy_sweep_sizes(1 << 20).size());
    EXPECT_TRUE(s.knee.has_value());
  }
  EXPECT_EQ(report->small_copies, 256u);
  EXPECT_FALSE(report->many_small.empty());
  ASSERT_EQ(report->batches.points.size(), 3u);
  for (const auto& p : report->batches.points) {
    EXPECT_GT(p.device_samples_per_second, 0.0);
    EXPECT_GT(p.cpu_samples_per_second, 0.0);
  }
  EXPECT_FALSE(report->managed.available);
  EXPECT_NE(report->managed.absent.find("no managed memory"), std::string::npos);
  EXPECT_FALSE(report->link.known);
}

TEST(MovingDataEmulated, AutoWorkIsResolvedAndReported) {
  auto device = make_emulator_device();
  MovingDataRequest request = small_request();
  request.params.rounds = 0;
  auto report = run_moving_data(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_GE(report->params.rounds, 1u);
  EXPECT_TRUE(report->check.passed) << report->check.describe();
}

TEST(MovingDataEmulated, TheLessonsReportCarriesTheModelLabelAndTheExports) {
  auto lesson = make_lesson(lessons::kMovingDataId);
  ASSERT_TRUE(lesson.is_ok());
  ASSERT_TRUE((*lesson)
                  ->configure({{"bytes", "256K"},
                               {"chunks", "8"},
                               {"streams", "2"},
                               {"work", "2"},
                               {"copy_top", "64K"}})
                  .is_ok());
  (*lesson)->set_repeats(1);
  (*lesson)->set_time_cpu(false);
  auto device = make_emulator_device();
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed);
  bool model_noted = false;
  for (const std::string& note : report->notes) {
    if (note.rfind("MODEL", 0) == 0) model_noted = true;
  }
  EXPECT_TRUE(model_noted) << "the emulator's timelines are labelled as a model";
  EXPECT_NE(report->find({TimingRole::kEndToEndPinned, pipeline_variant(2)}), nullptr);
  EXPECT_NE(report->find({TimingRole::kEndToEndPageable, pipeline_variant(2)}), nullptr);
  ASSERT_NE(report->attachment, nullptr);
  const auto exports = report->attachment->exports();
  ASSERT_EQ(exports.size(), 3u);
  EXPECT_EQ(exports[0].suffix, "timeline.csv");
  EXPECT_NE(exports[1].contents.find("\"source\": \"model\""), std::string::npos);
}

TEST(MovingDataEmulated, BadInputIsRefusedAndTheLessonKeepsWorking) {
  auto lesson = make_lesson(lessons::kMovingDataId);
  ASSERT_TRUE(lesson.is_ok());
  compute::Lesson& l = **lesson;
  ASSERT_TRUE(l.configure({{"bytes", "64K"},
                           {"chunks", "4"},
                           {"streams", "2"},
                           {"work", "1"},
                           {"copy_top", "16K"}})
                  .is_ok());
  const Status zero = l.configure({{"chunks", "0"}});
  EXPECT_FALSE(zero.is_ok());
  EXPECT_NE(zero.message().find("chunks must be at least 1"), std::string::npos) << zero.message();
  const Status streams = l.configure({{"streams", "8"}});
  EXPECT_NE(streams.message().find("must not exceed chunks"), std::string::npos)
      << streams.message();
  EXPECT_EQ(l.values().at("chunks"), "4") << "a refused configuration changes nothing";

  auto device = make_emulator_device();
  l.set_repeats(1);
  l.set_time_cpu(false);
  // Past free host memory (and the emulator's "device" memory, which is host memory too).
  ASSERT_TRUE(l.configure({{"bytes", "2^42"}, {"chunks", "4096"}}).is_ok());
  auto refused = l.run_timed(*device, nullptr);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kOutOfMemory);
  EXPECT_NE(refused.message().find("ask for fewer bytes"), std::string::npos) << refused.message();

  ASSERT_TRUE(l.configure({{"bytes", "64K"}, {"chunks", "4"}}).is_ok());
  auto fine = l.run_timed(*device, nullptr);
  ASSERT_TRUE(fine.is_ok()) << fine.message();
  EXPECT_TRUE(fine->check->passed);
}

// A device whose pinned memory is always refused: the run says so and its pinned pipelines run
// from pageable memory (and overlap nothing).
class NoPinnedMemory final : public tl::testing::ForwardingDevice {
 public:
  Result<void*> allocate_pinned_host(std::size_t) override {
    return Error{ErrorKind::kOutOfMemory, "page-locked memory limit reached"};
  }
};

TEST(MovingDataEmulated, RefusedPinnedMemoryIsSaidAndTheRunGoesOn) {
  NoPinnedMemory device;
  auto report = run_moving_data(device, small_request());
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_NE(report->pinned_unavailable.find("page-locked memory limit reached"), std::string::npos)
      << report->pinned_unavailable;
  EXPECT_EQ(report->copies.size(), 2u) << "the pageable series only";
  EXPECT_TRUE(report->check.passed) << report->check.describe();
  EXPECT_FALSE(report->batches.pinned);
}

}  // namespace
}  // namespace tl::compute
