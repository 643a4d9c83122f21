// When the window draws (app/ui/redraw_policy.hpp), without a window: at once while work runs or
// input just came (a few frames settle it), at the cursor's blink while a text field has the
// keyboard, else after waiting for input.

#include <gtest/gtest.h>

#include "redraw_policy.hpp"

namespace tl::ui {
namespace {

TEST(RedrawPolicy, IdleItWaitsAfterTheFirstFramesSettle) {
  RedrawPolicy policy;
  for (int i = 0; i < RedrawPolicy::kSettleFrames; ++i) EXPECT_EQ(policy.next_wait({}), 0.0) << i;
  EXPECT_EQ(policy.next_wait({}), RedrawPolicy::kIdleSeconds);
  EXPECT_EQ(policy.next_wait({}), RedrawPolicy::kIdleSeconds);
}

TEST(RedrawPolicy, InputIsFollowedByAFewFramesThenTheWaitAgain) {
  RedrawPolicy policy;
  for (int i = 0; i < RedrawPolicy::kSettleFrames; ++i) (void)policy.next_wait({});
  EXPECT_EQ(policy.next_wait({.events = true}), 0.0);
  for (int i = 1; i < RedrawPolicy::kSettleFrames; ++i) EXPECT_EQ(policy.next_wait({}), 0.0) << i;
  EXPECT_EQ(policy.next_wait({}), RedrawPolicy::kIdleSeconds);
}

TEST(RedrawPolicy, RunningWorkDrawsEveryFrame) {
  RedrawPolicy policy;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(policy.next_wait({.work_running = true}), 0.0);
  // Once it ends, the frames that settle its last picture, then the wait.
  for (int i = 0; i < RedrawPolicy::kSettleFrames; ++i) EXPECT_EQ(policy.next_wait({}), 0.0);
  EXPECT_GT(policy.next_wait({}), 0.0);
}

TEST(RedrawPolicy, ATextCursorBlinksAtItsOwnPace) {
  RedrawPolicy policy;
  for (int i = 0; i < RedrawPolicy::kSettleFrames; ++i) (void)policy.next_wait({});
  EXPECT_EQ(policy.next_wait({.text_cursor = true}), RedrawPolicy::kBlinkSeconds);
  EXPECT_LT(RedrawPolicy::kBlinkSeconds, RedrawPolicy::kIdleSeconds);
}

}  // namespace
}  // namespace tl::ui
