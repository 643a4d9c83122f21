// The Kernel Lab's columns (app/ui/lab_layout.hpp), without a window: the editor takes the room
// until there is a verdict, then shares it by the splitter, both columns keeping a least width.

#include <gtest/gtest.h>

#include "lab_layout.hpp"

namespace tl::ui {
namespace {

LabLayoutInputs inputs(bool verdict, float share = 0) {
  LabLayoutInputs in;
  in.width = 1600;
  in.spacing = 8;
  in.splitter = 8;
  in.font_size = 16;
  in.verdict = verdict;
  in.code_share = share;
  return in;
}

TEST(LabLayout, WithoutAVerdictTheEditorTakesTheRest) {
  const LabLayout layout = compute_lab_layout(inputs(false));
  EXPECT_FALSE(layout.verdict_open());
  EXPECT_EQ(layout.exercises, 384);  // 24 %
  EXPECT_FLOAT_EQ(layout.exercises + 8 + layout.code, 1600);
}

TEST(LabLayout, AVerdictSharesTheRoomByTheSplitter) {
  const LabLayout layout = compute_lab_layout(inputs(true));
  ASSERT_TRUE(layout.verdict_open());
  EXPECT_FLOAT_EQ(layout.exercises + layout.code + layout.verdict + 2 * 8 + 8, 1600);
  EXPECT_NEAR(layout.code / (layout.code + layout.verdict), kDefaultCodeShare, 0.01);
  // The learner's share, and the least widths at its ends.
  EXPECT_NEAR(compute_lab_layout(inputs(true, 0.5f)).code, (1600 - 384 - 24) * 0.5f, 1.0f);
  EXPECT_GE(compute_lab_layout(inputs(true, 0.99f)).verdict, 16 * 14.0f);
  EXPECT_GE(compute_lab_layout(inputs(true, 0.01f)).code, 16 * 22.0f);
}

TEST(LabLayout, DraggingTheSplitterMovesTheEditorsEdge) {
  const LabLayoutInputs in = inputs(true);
  const LabLayout before = compute_lab_layout(in);
  LabLayoutInputs moved = in;
  moved.code_share = code_share_after_drag(in, before, 100);
  EXPECT_NEAR(compute_lab_layout(moved).code, before.code + 100, 1.0f);
  moved.code_share = code_share_after_drag(in, before, -5000);
  EXPECT_NEAR(compute_lab_layout(moved).code, 16 * 22.0f, 1.0f) << "not below the least width";
}

}  // namespace
}  // namespace tl::ui
