#pragma once
// Lesson 8, number formats, behind the Lesson interface. A timed run computes the dot product and
// the matrix product in every format and accumulator (precision_runner.hpp) and carries its full
// report for the views; a traced run records who wrote each element of the drawn variant's C.

#include <memory>

#include "compute/lessons/lesson.hpp"
#include "lessons/08_precision/precision_runner.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_precision_lesson();

struct PrecisionAttachment final : LessonAttachment {
  explicit PrecisionAttachment(PrecisionReport r) : report(std::move(r)) {}
  PrecisionReport report;
};

[[nodiscard]] inline const PrecisionReport* precision_report(
    const std::shared_ptr<const LessonAttachment>& attachment) {
  const auto* a = dynamic_cast<const PrecisionAttachment*>(attachment.get());
  return a == nullptr ? nullptr : &a->report;
}

// The lines a report prints: the error table (one line per variant), the input-rounding errors,
// and each showcase value's bits in every format.
[[nodiscard]] std::vector<std::string> precision_table_lines(const PrecisionReport& report);
[[nodiscard]] std::vector<std::string> showcase_lines();

}  // namespace tl::compute
