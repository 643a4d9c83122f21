#include "core/classroom/guided_steps.hpp"

#include <gtest/gtest.h>

namespace tl::classroom {
namespace {

markdown::Document parse_or_die(const char* text) {
  auto document = markdown::parse(text);
  EXPECT_TRUE(document.is_ok()) << document.message();
  return *document;
}

constexpr const char* kLesson = R"(# Vector add

Intro with a [plain link](https://example.com).

## One block

- [One block of 1000](threadlab:set?n=1000&grid=1&block=1000&launch): it works.
- Compare [this](threadlab:set?n=1) with that: not a step, the link is not first.
- [Pick the SM colours](threadlab:set?color=sm): no launch.

## Sweeps

[Run the **sweep**](threadlab:set?n=2^24&sweep) and look.
)";

TEST(GuidedSteps, ItemsThatBeginWithAnActionLinkAreSteps) {
  auto steps = collect_steps(parse_or_die(kLesson));
  ASSERT_TRUE(steps.is_ok()) << steps.message();
  ASSERT_EQ(steps->size(), 3u);
  EXPECT_EQ((*steps)[0].title, "One block of 1000");
  EXPECT_EQ((*steps)[0].section, "One block");
  EXPECT_EQ((*steps)[0].action, "threadlab:set?n=1000&grid=1&block=1000&launch");
  EXPECT_TRUE((*steps)[0].launches);
  EXPECT_EQ((*steps)[0].text, "One block of 1000: it works.");
  EXPECT_FALSE((*steps)[1].launches);
  EXPECT_EQ((*steps)[2].section, "Sweeps");
  EXPECT_TRUE((*steps)[2].launches) << "a sweep counts as launching";
  EXPECT_LT((*steps)[0].block, (*steps)[1].block);
  EXPECT_LT((*steps)[1].block, (*steps)[2].block);
}

TEST(GuidedSteps, ABrokenStepLinkIsAnErrorNamingIt) {
  auto steps =
      collect_steps(parse_or_die("# Lesson\n\n- [Fine](threadlab:set?n=1000): ok\n- "
                                 "[Broken](threadlab:set?sweep=sideways): oops\n"));
  ASSERT_FALSE(steps.is_ok());
  EXPECT_NE(steps.message().find("Broken"), std::string::npos) << steps.message();
  EXPECT_EQ(steps.message().rfind("line 4, ", 0), 0u) << steps.message();
}

TEST(GuidedSteps, ALessonWithoutStepsHasNone) {
  auto steps = collect_steps(parse_or_die("# Title\n\nJust text.\n"));
  ASSERT_TRUE(steps.is_ok());
  EXPECT_TRUE(steps->empty());
}

TEST(StepCursor, WalksForwardAndBackThroughTheIntroduction) {
  StepCursor cursor(3);
  EXPECT_TRUE(cursor.at_start());
  EXPECT_EQ(cursor.progress_text(), "Introduction");
  EXPECT_FALSE(cursor.previous()) << "nothing before the introduction";
  EXPECT_TRUE(cursor.next());
  EXPECT_EQ(cursor.current(), 0u);
  EXPECT_EQ(cursor.progress_text(), "Step 1 of 3");
  EXPECT_TRUE(cursor.next());
  EXPECT_TRUE(cursor.next());
  EXPECT_TRUE(cursor.at_end());
  EXPECT_FALSE(cursor.next()) << "past the last step the caller moves on";
  EXPECT_EQ(cursor.current(), 2u);
  EXPECT_TRUE(cursor.previous());
  EXPECT_EQ(cursor.current(), 1u);
  EXPECT_TRUE(cursor.previous());
  EXPECT_TRUE(cursor.previous());
  EXPECT_TRUE(cursor.at_start());
}

TEST(StepCursor, JumpsAreClampedAndNoStepsMeansNoMoves) {
  StepCursor cursor(4);
  cursor.go_to(10);
  EXPECT_EQ(cursor.current(), 3u);
  cursor.go_to(1);
  EXPECT_EQ(cursor.progress_text(), "Step 2 of 4");
  cursor.go_to(std::nullopt);
  EXPECT_TRUE(cursor.at_start());

  StepCursor none;
  EXPECT_FALSE(none.next());
  EXPECT_FALSE(none.previous());
  EXPECT_TRUE(none.at_end());
  EXPECT_EQ(none.progress_text(), "No guided steps");
}

// A step under no heading is named by its title alone, not ": title".
TEST(GuidedSteps, AStepsHeadingHasNoEmptySection) {
  GuidedStep step;
  step.title = "A small sum, one block";
  EXPECT_EQ(step_heading(step), "A small sum, one block");
  step.section = "3. Reductions";
  EXPECT_EQ(step_heading(step), "3. Reductions: A small sum, one block");
}

}  // namespace
}  // namespace tl::classroom
