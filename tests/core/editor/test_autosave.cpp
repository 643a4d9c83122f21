#include "core/editor/autosave.hpp"

#include <gtest/gtest.h>

namespace tl::editor {
namespace {

TEST(AutosaveSchedule, NothingDueForTheLoadedText) {
  AutosaveSchedule schedule;
  schedule.observe(1, false, 0.0);
  EXPECT_FALSE(schedule.due(100.0));
}

TEST(AutosaveSchedule, SavesAfterTheTypingPauses) {
  AutosaveSchedule schedule({.quiet_seconds = 1.0, .longest_seconds = 10.0});
  schedule.observe(1, false, 0.0);
  schedule.observe(2, true, 5.0);
  EXPECT_FALSE(schedule.due(5.5));
  schedule.observe(3, true, 5.8);  // still typing: the quiet time starts again
  EXPECT_FALSE(schedule.due(6.5));
  EXPECT_TRUE(schedule.due(6.9));
  schedule.saved();
  schedule.observe(3, false, 7.0);
  EXPECT_FALSE(schedule.due(20.0));
}

TEST(AutosaveSchedule, LongTypingStillSavesEverySoOften) {
  AutosaveSchedule schedule({.quiet_seconds = 1.0, .longest_seconds = 10.0});
  schedule.observe(1, false, 0.0);
  std::uint64_t version = 1;
  double now = 0.0;
  for (; now < 9.9; now += 0.5) {
    schedule.observe(++version, true, now);
    EXPECT_FALSE(schedule.due(now));
  }
  schedule.observe(++version, true, 10.0);
  EXPECT_TRUE(schedule.due(10.0));
}

TEST(AutosaveSchedule, UndoingBackToTheSavedTextCancelsTheSave) {
  AutosaveSchedule schedule;
  schedule.observe(1, false, 0.0);
  schedule.observe(2, true, 1.0);
  schedule.observe(3, false, 1.2);  // undone
  EXPECT_FALSE(schedule.due(5.0));
}

}  // namespace
}  // namespace tl::editor
