#include "core/markdown/lesson_document.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <sys/mman.h>
#include <unistd.h>

#include "core/lessons/lesson_action.hpp"

namespace tl {
namespace {

using markdown::BlockKind;

TEST(LessonDocument, ParsesHeadingsParagraphsListsAndCode) {
  const auto doc = markdown::parse(
      "# Vector add\n\nEach **thread** adds `one` element.\n\n"
      "1. first\n2. second\n\n- bullet\n\n```cuda\nint i = 0;\n```\n\n> note\n\n---\n");
  ASSERT_TRUE(doc.is_ok());
  const auto& b = doc->blocks;
  ASSERT_EQ(b.size(), 8u);
  EXPECT_EQ(doc->title(), "Vector add");
  EXPECT_EQ(b[0].kind, BlockKind::kHeading);
  EXPECT_EQ(b[0].level, 1);
  ASSERT_EQ(b[1].kind, BlockKind::kParagraph);
  ASSERT_EQ(b[1].spans.size(), 5u);
  EXPECT_EQ(b[1].spans[0].text, "Each ");
  EXPECT_TRUE(b[1].spans[1].strong);
  EXPECT_EQ(b[1].spans[1].text, "thread");
  EXPECT_TRUE(b[1].spans[3].code);
  EXPECT_EQ(b[2].kind, BlockKind::kListItem);
  EXPECT_EQ(b[2].ordinal, 1);
  EXPECT_EQ(b[3].ordinal, 2);
  EXPECT_EQ(b[4].ordinal, 0);
  EXPECT_EQ(b[5].kind, BlockKind::kCode);
  EXPECT_EQ(b[5].code, "int i = 0;\n");
  EXPECT_EQ(b[5].code_info, "cuda");
  EXPECT_EQ(b[6].kind, BlockKind::kQuote);
  EXPECT_EQ(b[7].kind, BlockKind::kRule);
  // Each block knows the line its text starts on, for messages about it; a rule has no text.
  EXPECT_EQ(b[0].line, 1);
  EXPECT_EQ(b[1].line, 3);
  EXPECT_EQ(b[2].line, 5);
  EXPECT_EQ(b[3].line, 6);
  EXPECT_EQ(b[4].line, 8);
  EXPECT_EQ(b[5].line, 11);
  EXPECT_EQ(b[6].line, 14);
  EXPECT_EQ(b[7].line, 0);
}

TEST(LessonDocument, KeepsLinkTargetsAndSoftBreaksBecomeSpaces) {
  const auto doc = markdown::parse("Try [one block](threadlab:set?grid=1&launch)\nnow.\n");
  ASSERT_TRUE(doc.is_ok());
  const auto& spans = doc->blocks.at(0).spans;
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[1].text, "one block");
  EXPECT_EQ(spans[1].link, "threadlab:set?grid=1&launch");
  EXPECT_EQ(spans[2].text, " now.");
}

TEST(LessonAction, ParsesSettingsAndLaunch) {
  auto action =
      lessons::parse_lesson_action("threadlab:set?n=2^20&grid=1&block=1024&color=warp&launch");
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_EQ(action->values.at("n"), "2^20");
  EXPECT_EQ(action->values.at("grid"), "1");
  EXPECT_EQ(action->values.at("block"), "1024");
  EXPECT_FALSE(action->lesson.has_value());
  EXPECT_EQ(action->color_by, "warp");
  EXPECT_TRUE(action->launch);
  EXPECT_FALSE(action->sweep);
}

TEST(LessonAction, SwitchesLessonsAndPassesParametersOnForTheLessonToCheck) {
  auto action = lessons::parse_lesson_action("threadlab:set?lesson=matmul&m=64&sweep");
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_EQ(action->lesson, "matmul");
  EXPECT_EQ(action->values.at("m"), "64");
  EXPECT_TRUE(action->sweep);
}

TEST(LessonAction, ViewPicksAResultsTabAndIsNotALessonParameter) {
  auto action = lessons::parse_lesson_action("threadlab:set?view=grid&n=10");
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_EQ(action->view, "grid");
  EXPECT_EQ(action->values.count("view"), 0u);
}

TEST(LessonAction, PlotPicksTheYQuantityAndIsNotALessonParameter) {
  auto action = lessons::parse_lesson_action("threadlab:set?lesson=matmul&plot=gflops&sweep");
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_EQ(action->plot, "gflops");
  EXPECT_EQ(action->values.count("plot"), 0u);
}

TEST(LessonAction, OpensAnExerciseInTheKernelLabAndChecksIt) {
  auto action = lessons::parse_lesson_action(
      "threadlab:set?exercise=vector-add&submission=missing_guard&check");
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_EQ(action->exercise, "vector-add");
  EXPECT_EQ(action->submission, "missing_guard");
  EXPECT_TRUE(action->check);
  EXPECT_TRUE(action->values.empty());
  EXPECT_FALSE(lessons::parse_lesson_action("threadlab:set?exercise").is_ok());
}

TEST(LessonAction, RunsAnExerciseWithTheLabsGrid) {
  auto action = lessons::parse_lesson_action(
      "threadlab:set?exercise=vector-add&submission=solution&lab_grid=2&run");
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_TRUE(action->run);
  EXPECT_FALSE(action->check);
  EXPECT_EQ(action->lab_grid, "2");
  EXPECT_TRUE(action->values.empty()) << "lab_grid is the Lab's, not a lesson parameter";
}

TEST(LessonAction, SweepsOverSizesOrOverBlockSizes) {
  auto sizes = lessons::parse_lesson_action("threadlab:set?sweep");
  ASSERT_TRUE(sizes.is_ok());
  EXPECT_TRUE(sizes->sweep);
  EXPECT_FALSE(sizes->sweep_blocks);
  auto blocks = lessons::parse_lesson_action("threadlab:set?n=2^24&sweep=block");
  ASSERT_TRUE(blocks.is_ok());
  EXPECT_TRUE(blocks->sweep);
  EXPECT_TRUE(blocks->sweep_blocks);
  EXPECT_EQ(blocks->values.count("sweep"), 0u);
  EXPECT_FALSE(lessons::parse_lesson_action("threadlab:set?sweep=sideways").is_ok());
}

TEST(LessonAction, RejectsMalformedLinks) {
  EXPECT_FALSE(lessons::parse_lesson_action("https://example.com").is_ok());
  EXPECT_FALSE(lessons::parse_lesson_action("threadlab:setn=1").is_ok());
  EXPECT_FALSE(lessons::parse_lesson_action("threadlab:set?n").is_ok());
  EXPECT_FALSE(lessons::parse_lesson_action("threadlab:set?=5").is_ok());
  EXPECT_TRUE(lessons::is_lesson_action("threadlab:set?launch"));
  EXPECT_FALSE(lessons::is_lesson_action("threadlab"));
}

TEST(LessonDocument, ATextSizeMd4cGetsWrongIsAParseErrorNotACrash) {
  // Found by fuzz_lesson_text: on this input md4c 0.4 passes a text callback a size of about 3 GB.
  const std::filesystem::path path = std::filesystem::path(THREADLAB_SOURCE_DIR) /
                                     "tests/fuzz/corpus/fuzz_lesson_text/md4c_huge_text_size";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(text.size(), 1000u);
  auto document = markdown::parse(text);
  if (!document.is_ok()) {
    EXPECT_EQ(document.error().kind, ErrorKind::kParseError);
  } else {
    for (const auto& block : document->blocks) {
      for (const auto& span : block.spans) EXPECT_LE(span.text.size(), text.size());
    }
  }
}

// A text whose last byte is the last byte of a readable page, with an unreadable page after it: a
// parser that reads past the end of its input dies here instead of reading someone else's memory.
class TextAgainstAGuardPage {
 public:
  explicit TextAgainstAGuardPage(std::string_view text)
      : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    void* memory =
        mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED || text.size() > page_) return;
    base_ = static_cast<char*>(memory);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) return;
    char* start = base_ + page_ - text.size();
    std::copy(text.begin(), text.end(), start);
    view_ = std::string_view(start, text.size());
  }
  ~TextAgainstAGuardPage() {
    if (base_ != nullptr) munmap(base_, 2 * page_);
  }
  TextAgainstAGuardPage(const TextAgainstAGuardPage&) = delete;
  TextAgainstAGuardPage& operator=(const TextAgainstAGuardPage&) = delete;

  [[nodiscard]] bool ready() const { return !view_.empty(); }
  [[nodiscard]] std::string_view view() const { return view_; }

 private:
  std::size_t page_;
  char* base_ = nullptr;
  std::string_view view_;
};

TEST(LessonDocument, ParsesATextThatEndsAtTheEndOfReadableMemory) {
  // md4c 0.4.8 reads one character past its input on each of these (the CI fuzzer found the
  // first, as a crash on a buffer that ended at a page boundary): the parse must not.
  for (const std::string_view text : {"5", "12", "# Title\n\n3", "- item\n  7", "> 1"}) {
    TextAgainstAGuardPage guarded(text);
    ASSERT_TRUE(guarded.ready()) << "could not map a guard page";
    const auto document = markdown::parse(guarded.view());
    ASSERT_TRUE(document.is_ok()) << text;
    EXPECT_FALSE(document->blocks.empty()) << text;
  }
}

}  // namespace
}  // namespace tl
