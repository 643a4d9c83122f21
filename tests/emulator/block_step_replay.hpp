#pragma once
// One step of a block-size sweep replayed as the app runs it (AppController::start_sweep): a fresh
// lesson of the same kind, configured with the current lesson's values, then with the step's. The
// app skips a step whose configuration fails, so the block-sweep tests require that it succeeds.

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"

namespace tl::compute {

// nullptr (with the failure recorded) when the lesson or either configuration is refused.
inline std::unique_ptr<Lesson> lesson_for_block_step(std::string_view lesson_id,
                                                     const lessons::ParamValues& current,
                                                     const BlockStep& step) {
  auto lesson = make_lesson(lesson_id);
  EXPECT_TRUE(lesson.is_ok()) << lesson.message();
  if (!lesson) return nullptr;
  const Status base = (*lesson)->configure(current);
  EXPECT_TRUE(base.is_ok()) << base.message();
  const Status configured = (*lesson)->configure(step.values);
  EXPECT_TRUE(configured.is_ok()) << configured.message();
  if (!base || !configured) return nullptr;
  return std::move(*lesson);
}

// The step's traced launch, as the app draws it: the launch it ran with, how many records it
// left and their summary. nullopt (with the failure recorded) when the launch or its check failed.
struct TracedStep {
  LaunchConfig config;
  std::size_t records = 0;
  TraceSummary summary;
};
inline std::optional<TracedStep> trace_block_step(Lesson& lesson, Device& device) {
  HostTraceSink sink;
  auto traced = lesson.run_traced(device, sink);
  EXPECT_TRUE(traced.is_ok()) << traced.message();
  if (!traced) return std::nullopt;
  EXPECT_TRUE(traced->check.has_value());
  if (!traced->check) return std::nullopt;
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  return TracedStep{traced->config, sink.records().size(),
                    summarize(sink.records(), traced->config)};
}

}  // namespace tl::compute
