// open_launch in-process: the command line's lesson is configured once, before any device opens,
// and that very lesson is the one the session then holds, with the backend's defaults filling in
// only what the command line left unset.
#include <gtest/gtest.h>

#include <sstream>

#include "compute/lessons/lesson_registry.hpp"
#include "interop/launch_session.hpp"
#include "launch_request.hpp"

namespace tl::cli {
namespace {

LaunchOptions on_the_emulator(std::string lesson, std::map<std::string, std::string> params) {
  LaunchOptions options;
  options.lesson = std::move(lesson);
  options.params = std::move(params);
  options.backend = "emulator";
  return options;
}

TEST(OpenLaunch, TheSessionHoldsTheLessonTheCommandLineConfigured) {
  const LaunchOptions options = on_the_emulator("matmul", {{"m", "40"}});
  auto configured = configure_lesson(options);
  ASSERT_TRUE(configured.is_ok()) << configured.message();
  const compute::Lesson* made = configured->get();
  std::ostringstream note;
  auto session = open_launch(options, std::move(*configured), nullptr, note);
  ASSERT_TRUE(session.is_ok()) << session.message();
  EXPECT_EQ((*session)->lesson(), made) << "no second lesson is made";
  const lessons::ParamValues values = (*session)->lesson()->values();
  EXPECT_EQ(values.at("m"), "40") << "the command line's value stays";
  // The emulator's smaller defaults for what the command line did not set, and the note says so.
  EXPECT_EQ(values.at("n"), "192");
  EXPECT_EQ(values.at("k"), "128");
  EXPECT_NE(note.str().find("n=192"), std::string::npos) << note.str();
  EXPECT_EQ(note.str().find("m="), std::string::npos) << note.str();
}

TEST(OpenLaunch, TheCommandLinesMistakesComeBeforeAnyDeviceIsOpened) {
  // A backend that does not exist would fail to open: the bad value is reported first, as usage.
  LaunchOptions options = on_the_emulator("vector-add", {{"n", "many"}});
  options.backend = "cuda";
  std::ostringstream note;
  auto session = open_launch(options, nullptr, note);
  ASSERT_FALSE(session.is_ok());
  EXPECT_EQ(open_launch_exit_status(session.error()), kExitUsage) << session.message();
}

TEST(OpenLaunch, SingleBlockIsOneBlockOfAThreadPerElement) {
  LaunchOptions options = on_the_emulator("vector-add", {{"n", "700"}});
  options.single_block = true;
  std::ostringstream note;
  auto session = open_launch(options, nullptr, note);
  ASSERT_TRUE(session.is_ok()) << session.message();
  const compute::Lesson& lesson = *(*session)->lesson();
  EXPECT_EQ(lesson.launch_config().grid.volume(), 1u);
  EXPECT_EQ(lesson.launch_config().block.x, 700u);
}

TEST(OpenLaunch, SingleBlockOnALessonWhoseKernelsRefuseItIsAUsageError) {
  LaunchOptions options = on_the_emulator("reductions", {});
  options.single_block = true;
  std::ostringstream note;
  auto session = open_launch(options, nullptr, note);
  ASSERT_FALSE(session.is_ok());
  EXPECT_EQ(open_launch_exit_status(session.error()), kExitUsage) << session.message();
  EXPECT_NE(session.message().find("--single-block: "), std::string::npos) << session.message();
}

TEST(AdoptLesson, ValuesTheCallerChoseAreKeptUnderAnyOfTheirNames) {
  auto session = interop::LaunchSession::open(interop::BackendPreference::kEmulator, nullptr);
  ASSERT_TRUE(session.is_ok()) << session.message();
  auto lesson = compute::make_lesson("reductions");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  ASSERT_TRUE((*lesson)->configure({{"rows", "32"}}).is_ok());
  auto adopted = (*session)->adopt_lesson(std::move(*lesson), {{"rows", "32"}});
  ASSERT_TRUE(adopted.is_ok()) << adopted.message();
  EXPECT_EQ(adopted->count("rows"), 0u) << "the caller's value is not replaced";
  EXPECT_EQ(adopted->count("n"), 1u);
  EXPECT_EQ((*session)->lesson()->values().at("rows"), "32");
}

TEST(AdoptLesson, NoLessonIsAnErrorAndTheSessionKeepsItsOwn) {
  auto session = interop::LaunchSession::open(interop::BackendPreference::kEmulator, nullptr);
  ASSERT_TRUE(session.is_ok()) << session.message();
  ASSERT_TRUE((*session)->select_lesson("vector-add").is_ok());
  const compute::Lesson* before = (*session)->lesson();
  EXPECT_FALSE((*session)->adopt_lesson(nullptr, {}).is_ok());
  EXPECT_EQ((*session)->lesson(), before);
}

}  // namespace
}  // namespace tl::cli
