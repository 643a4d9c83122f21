#pragma once
// Lesson 6, reductions, behind the Lesson interface. A timed run measures the whole sum ladder,
// CUB, the copy, the histograms and the softmax side by side (reductions_runner.hpp) and carries
// its full report for the lesson's views; a traced run records which thread read each element
// for the selected rung.

#include <memory>

#include "compute/lessons/lesson.hpp"
#include "lessons/06_reductions/reductions_runner.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_reductions_lesson();

// The timed run's whole report, for the views (the trees, the banks, contention, numerics).
struct ReductionsAttachment final : LessonAttachment {
  explicit ReductionsAttachment(ReductionsReport r) : report(std::move(r)) {}
  ReductionsReport report;
};

[[nodiscard]] inline const ReductionsReport* reductions_report(
    const std::shared_ptr<const LessonAttachment>& attachment) {
  const auto* a = dynamic_cast<const ReductionsAttachment*>(attachment.get());
  return a == nullptr ? nullptr : &a->report;
}

// The timing-row variant of a histogram row: "histogram-global-uniform", ...
[[nodiscard]] std::string histogram_variant(bool shared, bool skewed);

}  // namespace tl::compute
