// The board: results counted once per attempt, newer attempts win, the class size is bounded, the
// names can be hidden, and the file survives a save and a load (and a damaged file is refused,
// not taken for an empty board).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "net/class_board.hpp"

namespace tl::net {
namespace {

LabResult result_of(const std::string& student, const std::string& exercise, std::uint64_t attempt,
                    LabOutcome outcome = LabOutcome::kPassed) {
  LabResult result;
  result.student = student;
  result.name = "Name of " + student;
  result.exercise = exercise;
  result.outcome = outcome;
  result.attempt = attempt;
  result.kernel_ms = static_cast<double>(attempt);
  result.reference_ms = 1;
  return result;
}

std::filesystem::path scratch(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("threadlab-board-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

TEST(ClassBoard, AResultCountsOnceAndNewerAttemptsWin) {
  Board board;
  auto first = board.record(result_of("student-aaaa", "vector-add", 5, LabOutcome::kFailed));
  ASSERT_TRUE(first && *first);
  std::uint64_t version = board.version;
  auto again = board.record(result_of("student-aaaa", "vector-add", 5, LabOutcome::kFailed));
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(board.version, version);
  auto older = board.record(result_of("student-aaaa", "vector-add", 4));
  ASSERT_TRUE(older);
  EXPECT_FALSE(*older);
  EXPECT_EQ(board.students["student-aaaa"].results["vector-add"].outcome, LabOutcome::kFailed);
  auto newer = board.record(result_of("student-aaaa", "vector-add", 6));
  ASSERT_TRUE(newer && *newer);
  EXPECT_EQ(board.students["student-aaaa"].results["vector-add"].outcome, LabOutcome::kPassed);
  ASSERT_TRUE(board.record(result_of("student-aaaa", "matmul", 7)));
  EXPECT_EQ(board.exercises, (std::vector<std::string>{"vector-add", "matmul"}));
}

TEST(ClassBoard, TheClassAndTheExerciseListAreBounded) {
  Board board;
  for (std::size_t i = 0; i < kMaxStudents; ++i) {
    ASSERT_TRUE(board.join({"student-" + std::to_string(1000 + i), "s"}));
  }
  EXPECT_FALSE(board.join({"student-new-one", "late"}));
  EXPECT_FALSE(board.record(result_of("student-new-one", "vector-add", 1)));
  EXPECT_TRUE(board.join({"student-1000", "renamed"}));  // one already in may rejoin
  Board exercises;
  for (std::size_t i = 0; i < kMaxExercises; ++i) {
    ASSERT_TRUE(exercises.record(result_of("student-aaaa", "e" + std::to_string(i), i + 1)));
  }
  EXPECT_FALSE(exercises.record(result_of("student-aaaa", "one-too-many", 999)));
}

TEST(ClassBoard, NamesAreShownOnlyWhenAsked) {
  Board board;
  ASSERT_TRUE(board.join({"student-bbbb", "Grace Hopper"}));
  ASSERT_TRUE(board.record(result_of("student-aaaa", "vector-add", 1)));
  auto hidden = nlohmann::json::parse(board_json(board, false, 1));
  EXPECT_EQ(hidden["students"][0]["name"], "Student 1");
  EXPECT_EQ(hidden["students"][1]["name"], "Student 2");
  EXPECT_EQ(hidden.dump().find("Grace"), std::string::npos);
  auto shown = nlohmann::json::parse(board_json(board, true, 1));
  EXPECT_EQ(shown["students"][0]["name"], "Grace Hopper");
  EXPECT_EQ(shown["students"][1]["results"]["vector-add"]["outcome"], "passed");
  EXPECT_EQ(shown["followers"], 1);
}

TEST(ClassBoard, SavedAndLoadedAsItWas) {
  Board board;
  ASSERT_TRUE(board.join({"student-bbbb", "Grace"}));
  ASSERT_TRUE(board.record(result_of("student-aaaa", "matmul", 3, LabOutcome::kCompileError)));
  ASSERT_TRUE(board.record(result_of("student-bbbb", "vector-add", 9)));
  FollowState follow;
  follow.seq = 12;
  follow.lesson = "vector-add";
  follow.values = {{"n", "4096"}};
  follow.step = 2;
  board.follow = follow;
  auto path = scratch("board.json").string();
  ASSERT_TRUE(save_board(board, path));
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();  // none left
  }
  auto loaded = load_board(path);
  ASSERT_TRUE(loaded) << loaded.message();
  EXPECT_EQ(loaded->version, board.version);
  EXPECT_EQ(loaded->exercises, board.exercises);
  EXPECT_EQ(loaded->follow, board.follow);
  EXPECT_EQ(board_json(*loaded, true, 0), board_json(board, true, 0));
}

TEST(ClassBoard, AMissingFileIsAnEmptyBoardADamagedOneAnError) {
  auto missing = load_board(scratch("never-written.json").string());
  ASSERT_TRUE(missing);
  EXPECT_TRUE(missing->students.empty());
  auto path = scratch("damaged.json");
  std::ofstream(path)
      << R"({"schema":1,"type":"board-file","students":[{"student":"x","name":"y"}]})";
  auto damaged = load_board(path.string());
  ASSERT_FALSE(damaged);
  EXPECT_NE(damaged.message().find("damaged.json"), std::string::npos) << damaged.message();
  std::ofstream(path) << "{ half a file";
  EXPECT_FALSE(load_board(path.string()));
}

TEST(ClassBoard, ASaveThatCannotBeWrittenSaysWhy) {
  Board board;
  // A folder that cannot exist, even for root: its parent is a regular file.
  auto file = scratch("a-file");
  std::ofstream(file) << "x";
  auto path = (file / "board.json").string();
  auto saved = save_board(board, path);
  ASSERT_FALSE(saved);
  EXPECT_NE(saved.message().find("a-file"), std::string::npos) << saved.message();
}

}  // namespace
}  // namespace tl::net

namespace tl::net {
namespace {

SharedCode shared(const std::string& student, const std::string& exercise, std::uint64_t attempt,
                  std::string code) {
  SharedCode share;
  share.student = student;
  share.name = "Name of " + student;
  share.exercise = exercise;
  share.code = std::move(code);
  share.attempt = attempt;
  return share;
}

TEST(ClassBoard, SharedCodeIsTheLatestPerExerciseForThePresenterOnly) {
  Board board;
  ASSERT_TRUE(board.share(shared("student-aaaa", "vector-add", 2, "int a;")));
  auto older = board.share(shared("student-aaaa", "vector-add", 1, "int old;"));
  ASSERT_TRUE(older);
  EXPECT_FALSE(*older);
  ASSERT_TRUE(board.share(shared("student-aaaa", "vector-add", 3, "int b;")));
  EXPECT_EQ(board.students["student-aaaa"].shared["vector-add"].code, "int b;");
  EXPECT_EQ(board.shared_bytes(), 6u);

  // The board's JSON says which exercises were shared, to the presenter, and never carries code;
  // the code itself is in shared_json (the presenter's /api/v1/shared).
  auto projector = nlohmann::json::parse(board_json(board, false, 0));
  EXPECT_FALSE(projector["students"][0].contains("shared"));
  auto presenter = nlohmann::json::parse(board_json(board, true, 0));
  EXPECT_EQ(presenter["students"][0]["shared"]["vector-add"], 3);
  EXPECT_EQ(board_json(board, true, 0).find("int b;"), std::string::npos);
  auto codes = nlohmann::json::parse(shared_json(board));
  ASSERT_EQ(codes["codes"].size(), 1u);
  EXPECT_EQ(codes["codes"][0]["code"], "int b;");
  EXPECT_EQ(codes["codes"][0]["name"], "Name of student-aaaa");

  // Saved and loaded with the board.
  auto path = scratch("shared.json");
  ASSERT_TRUE(save_board(board, path.string()));
  auto loaded = load_board(path.string());
  ASSERT_TRUE(loaded) << loaded.message();
  EXPECT_EQ(loaded->students["student-aaaa"].shared["vector-add"],
            board.students["student-aaaa"].shared["vector-add"]);
}

TEST(ClassBoard, TheBoardsSharedCodeIsBounded) {
  Board board;
  const std::string code(kMaxSharedCodeBytes, 'x');
  std::size_t kept = 0;
  Status last;
  for (std::size_t i = 0; i < kMaxStudents && last; ++i) {
    for (std::size_t e = 0; e < 8 && last; ++e) {
      auto result = board.share(shared("student-" + std::to_string(100000 + i),
                                       "exercise-" + std::to_string(e), 1, code));
      if (result) {
        ++kept;
      } else {
        last = result.error();
      }
    }
  }
  ASSERT_FALSE(last) << "a board of " << kept << " shares was never full";
  EXPECT_NE(last.message().find("as much shared code as it can"), std::string::npos)
      << last.message();
  EXPECT_LE(board.shared_bytes(), kMaxSharedBytes);
  EXPECT_EQ(kept, kMaxSharedBytes / kMaxSharedCodeBytes);
}

}  // namespace
}  // namespace tl::net
