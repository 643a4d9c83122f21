#pragma once
// Lesson 7, moving data, behind the Lesson interface. A timed run measures the copy sweep, the
// batched copies, the pipeline over several stream counts, the mini-batches and unified memory
// (moving_data_runner.hpp) and carries the whole report for the lesson's views; a traced run
// records which thread wrote each element, the kernel launched once over all the data.

#include <memory>
#include <string>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "lessons/07_moving_data/moving_data_runner.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_moving_data_lesson();

// The timed run's whole report, for the views (the copy curves, the timeline, the batches).
struct MovingDataAttachment final : LessonAttachment {
  explicit MovingDataAttachment(MovingDataReport r) : report(std::move(r)) {}
  // The selected pipeline's timeline (timeline.csv, timeline.json, marked "model" on the emulator)
  // and the copy sweep (copies.csv).
  [[nodiscard]] std::vector<LessonExport> exports() const override;
  MovingDataReport report;
};

[[nodiscard]] inline const MovingDataReport* moving_data_report(
    const std::shared_ptr<const LessonAttachment>& attachment) {
  const auto* a = dynamic_cast<const MovingDataAttachment*>(attachment.get());
  return a == nullptr ? nullptr : &a->report;
}

// The timing-row variant of a pipeline run: "streams-4".
[[nodiscard]] std::string pipeline_variant(std::uint32_t streams);

// What a run says about its pipelines in words (the CLI's notes, the view's summary): measured
// or modelled, total against serial and ideal, the overlap won.
[[nodiscard]] std::string describe_pipeline(const PipelineRun& run);

}  // namespace tl::compute
