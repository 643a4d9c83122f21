// The Kernel Lab's progress store: what a learner did survives the app (a fresh store reads it
// back), the best time only improves, and an unreadable file is kept aside, not lost.
#include "core/lab_progress.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace tl {
namespace {

std::filesystem::path fresh_folder(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  return dir;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LabProgress, LivesUnderTheXdgDataDirectory) {
  ::setenv("XDG_DATA_HOME", "/tmp/data", 1);
  EXPECT_EQ(LabProgressStore::default_folder(), std::filesystem::path("/tmp/data/threadlab/lab"));
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", "/home/learner", 1);
  EXPECT_EQ(LabProgressStore::default_folder(),
            std::filesystem::path("/home/learner/.local/share/threadlab/lab"));
}

TEST(LabProgress, ASecondStoreReadsBackWhatTheFirstSaved) {
  const auto dir = fresh_folder("threadlab_lab_progress_round_trip");
  {
    LabProgressStore store(dir);
    ASSERT_TRUE(store.load().is_ok()) << "no folder yet is no progress yet, not an error";
    EXPECT_TRUE(store.all().empty());
    ASSERT_TRUE(store.save_source("vector-add", "__global__ void add() {}\n").is_ok());
    ASSERT_TRUE(store.record_check("vector-add", false, 0, 0).is_ok());
    ASSERT_TRUE(store.record_check("vector-add", true, 0.5, 0.25).is_ok());
    ASSERT_TRUE(store.record_check("matmul", false, 0, 0).is_ok());
  }
  EXPECT_EQ(read(dir / "vector-add.cu"), "__global__ void add() {}\n")
      << "the source is a plain file the learner can open elsewhere";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << "no temporary left behind";
  }

  LabProgressStore again(dir);
  ASSERT_TRUE(again.load().is_ok());
  const ExerciseProgress* add = again.find("vector-add");
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->passed);
  EXPECT_EQ(add->checks, 2);
  EXPECT_EQ(add->failed_checks, 1);
  ASSERT_TRUE(add->best_ms.has_value());
  EXPECT_DOUBLE_EQ(*add->best_ms, 0.5);
  EXPECT_DOUBLE_EQ(add->solution_ms.value_or(0), 0.25);
  EXPECT_EQ(add->source, "__global__ void add() {}\n");
  const ExerciseProgress* matmul = again.find("matmul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_FALSE(matmul->passed);
  EXPECT_FALSE(matmul->source.has_value()) << "never edited";
  EXPECT_EQ(again.find("histogram"), nullptr);
}

TEST(LabProgress, TheBestTimeOnlyImprovesAndAFailureKeepsThePass) {
  LabProgressStore store(fresh_folder("threadlab_lab_progress_best"));
  ASSERT_TRUE(store.record_check("softmax", true, 2.0, 1.0).is_ok());
  ASSERT_TRUE(store.record_check("softmax", true, 3.0, 1.1).is_ok());
  EXPECT_DOUBLE_EQ(store.find("softmax")->best_ms.value_or(0), 2.0);
  EXPECT_DOUBLE_EQ(store.find("softmax")->solution_ms.value_or(0), 1.0)
      << "the solution's time of the run that set the best";
  ASSERT_TRUE(store.record_check("softmax", true, 1.5, 0.9).is_ok());
  EXPECT_DOUBLE_EQ(store.find("softmax")->best_ms.value_or(0), 1.5);
  ASSERT_TRUE(store.record_check("softmax", false, 0, 0).is_ok());
  EXPECT_TRUE(store.find("softmax")->passed) << "once passed, an exercise stays passed";
  // A pass without a measured time (timing off) is still a pass, with no time.
  ASSERT_TRUE(store.record_check("histogram", true, 0, 0).is_ok());
  EXPECT_TRUE(store.find("histogram")->passed);
  EXPECT_FALSE(store.find("histogram")->best_ms.has_value());
}

// The next session reopens the exercise the learner was on, with its last verdict in words, and
// remembers how far down its hints they went (issue 36's missing features).
TEST(LabProgress, TheExerciseOpenItsLastVerdictAndHintsSurviveTheApp) {
  const auto dir = fresh_folder("threadlab_lab_progress_reopen");
  {
    LabProgressStore store(dir);
    ASSERT_TRUE(store.load().is_ok());
    EXPECT_FALSE(store.last_open().has_value());
    ASSERT_TRUE(store.remember_open("grid-stride").is_ok());
    ASSERT_TRUE(store
                    .record_check("grid-stride", false, 0, 0,
                                  LastVerdict{"failed", "n = 1000: c[999] is 0, expected 3"})
                    .is_ok());
    ASSERT_TRUE(store.record_hints_shown("grid-stride", 2).is_ok());
    ASSERT_TRUE(store.record_hints_shown("grid-stride", 1).is_ok()) << "never fewer";
  }
  LabProgressStore again(dir);
  ASSERT_TRUE(again.load().is_ok());
  EXPECT_EQ(again.last_open(), std::optional<std::string>("grid-stride"));
  const ExerciseProgress* stride = again.find("grid-stride");
  ASSERT_NE(stride, nullptr);
  ASSERT_TRUE(stride->last.has_value());
  EXPECT_EQ(stride->last->outcome, "failed");
  EXPECT_EQ(stride->last->reason, "n = 1000: c[999] is 0, expected 3");
  EXPECT_EQ(stride->hints_shown, 2);
  EXPECT_EQ(stride->failed_checks, 1);
}

TEST(LabProgress, AnUnreadableFileIsMovedAsideAndReported) {
  const auto dir = fresh_folder("threadlab_lab_progress_unreadable");
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "progress.json") << "{ half a file"; }
  { std::ofstream(dir / "transpose.cu") << "kept"; }
  LabProgressStore store(dir);
  const Status loaded = store.load();
  EXPECT_FALSE(loaded.is_ok());
  EXPECT_NE(loaded.message().find("not valid JSON"), std::string::npos) << loaded.message();
  EXPECT_TRUE(std::filesystem::exists(dir / "progress.json.unreadable"));
  EXPECT_EQ(store.find("transpose")->source, "kept") << "the sources are read all the same";
  ASSERT_TRUE(store.record_check("transpose", true, 1.0, 1.0).is_ok());
  EXPECT_EQ(read(dir / "progress.json.unreadable"), "{ half a file");
}

TEST(LabProgress, RefusesIdsThatAreNotFileNames) {
  LabProgressStore store(fresh_folder("threadlab_lab_progress_ids"));
  EXPECT_FALSE(store.save_source("../escape", "x").is_ok());
  EXPECT_FALSE(store.record_check("a/b", true, 1, 1).is_ok());
  EXPECT_FALSE(store.save_source("", "x").is_ok());
  EXPECT_TRUE(is_safe_exercise_id("sum-tree_2"));
  EXPECT_FALSE(is_safe_exercise_id("Vector"));
}

TEST(LabProgress, InMemoryWithoutAFolder) {
  LabProgressStore store(std::nullopt);
  ASSERT_TRUE(store.load().is_ok());
  ASSERT_TRUE(store.save_source("vector-add", "x").is_ok());
  ASSERT_TRUE(store.record_check("vector-add", true, 1, 1).is_ok());
  EXPECT_EQ(store.find("vector-add")->source, "x");
  EXPECT_FALSE(store.source_path("vector-add").has_value());
}

// Two instances of the app, each loaded before the other saved: before the lock and merge, the
// second save replaced the first instance's exercise (F7 of the reliability review).
TEST(LabProgress, TwoStoresOnOneFolderKeepEachOthersChecks) {
  const auto dir = fresh_folder("threadlab_lab_progress_two_instances");
  LabProgressStore first(dir);
  LabProgressStore second(dir);
  ASSERT_TRUE(first.load().is_ok());
  ASSERT_TRUE(second.load().is_ok());
  ASSERT_TRUE(first.record_check("vector-add", true, 2.0, 1.0).is_ok());
  ASSERT_TRUE(second.record_check("grid-stride", false, 0, 0).is_ok());
  ASSERT_TRUE(first.record_check("vector-add", false, 0, 0).is_ok());
  LabProgressStore later(dir);
  ASSERT_TRUE(later.load().is_ok());
  ASSERT_NE(later.find("vector-add"), nullptr);
  ASSERT_NE(later.find("grid-stride"), nullptr);
  EXPECT_TRUE(later.find("vector-add")->passed);
  EXPECT_EQ(later.find("vector-add")->checks, 2);
  EXPECT_EQ(later.find("grid-stride")->checks, 1);
}

// The same, saving at the same moment from two threads: every check of both is counted, which
// needs the read-merge-write to hold the lock (and a temporary name of its own per writer).
TEST(LabProgress, TwoStoresSavingAtOnceLoseNothing) {
  const auto dir = fresh_folder("threadlab_lab_progress_concurrent");
  constexpr int kChecks = 40;
  const auto save = [&dir](const char* id) {
    LabProgressStore store(dir);
    (void)store.load();
    for (int i = 0; i < kChecks; ++i) (void)store.record_check(id, i % 2 == 0, 1.0 + i, 0);
  };
  std::thread a(save, "vector-add");
  std::thread b(save, "grid-stride");
  a.join();
  b.join();
  LabProgressStore later(dir);
  ASSERT_TRUE(later.load().is_ok());
  ASSERT_NE(later.find("vector-add"), nullptr);
  ASSERT_NE(later.find("grid-stride"), nullptr);
  EXPECT_EQ(later.find("vector-add")->checks, kChecks);
  EXPECT_EQ(later.find("grid-stride")->checks, kChecks);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

// A second unreadable file gets a name of its own: the first copy may be the one worth fixing.
TEST(LabProgress, ASecondUnreadableFileDoesNotOverwriteTheFirstCopy) {
  const auto dir = fresh_folder("threadlab_lab_progress_unreadable_twice");
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "progress.json") << "{ first"; }
  EXPECT_FALSE(LabProgressStore(dir).load().is_ok());
  { std::ofstream(dir / "progress.json") << "{ second"; }
  const Status loaded = LabProgressStore(dir).load();
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_EQ(read(dir / "progress.json.unreadable"), "{ first");
  EXPECT_EQ(read(dir / "progress.json.unreadable.1"), "{ second");
  EXPECT_NE(loaded.message().find("progress.json.unreadable.1"), std::string::npos)
      << loaded.message();
}

// A FIFO where progress.json should be: refused with a message at once, never waited on (F10).
TEST(LabProgress, AFifoInPlaceOfTheFileIsRefusedWithoutBlocking) {
  const auto dir = fresh_folder("threadlab_lab_progress_fifo");
  std::filesystem::create_directories(dir);
  ASSERT_EQ(::mkfifo((dir / "progress.json").c_str(), 0600), 0);
  const Status loaded = LabProgressStore(dir).load();
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_NE(loaded.message().find("FIFO"), std::string::npos) << loaded.message();
}

}  // namespace
}  // namespace tl
