// A kernel fault poisons the CUDA context: every later call fails. The device layer must report it
// as sticky; the app must then reset the device and re-create its interop resources, or, where CUDA
// cannot recover within the process (CUDA 13 on the H100 cannot after an illegal address), carry on
// on the emulator and say why. Either way the lesson keeps working and nothing crashes.
// These tests poison the process's CUDA context, so they live in their own executable, one test
// per process (CTest runs each discovered test alone), and out of the compute-sanitizer runs, which
// would rightly report the deliberate fault.

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "app_controller.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "faulting_kernel.hpp"
#include "gpu_test_environment.hpp"
#include "platform/egl_context.hpp"

namespace tl {
namespace {

class StickyErrorGpu : public testing::GpuTest {};

Result<compute::LessonReport> run_vector_add(compute::Device& device) {
  auto lesson = compute::make_lesson("vector-add");
  if (!lesson) return lesson.error();
  TL_RETURN_IF_ERROR((*lesson)->configure({{"n", "100000"}}));
  (*lesson)->set_repeats(1);
  (*lesson)->set_time_cpu(false);
  return (*lesson)->run_timed(device, nullptr);
}

TEST_F(StickyErrorGpu, AFaultIsReportedAsStickyAndTheResetSaysWhetherItRecovered) {
  ASSERT_TRUE(testing::launch_faulting_kernel().is_ok());
  const Status synced = device().synchronize();
  ASSERT_FALSE(synced.is_ok());
  EXPECT_EQ(synced.error().kind, ErrorKind::kCudaStickyError) << synced.message();
  // Until the reset, the lessons fail too, with the same kind: the app knows to reset.
  auto poisoned = run_vector_add(device());
  ASSERT_FALSE(poisoned.is_ok());
  EXPECT_EQ(poisoned.error().kind, ErrorKind::kCudaStickyError) << poisoned.message();

  const Status reset = device().reset();
  if (!reset) {
    // Not recoverable in this process: the error says so, in CUDA's words, and nothing crashed.
    EXPECT_FALSE(reset.message().empty());
    std::cout << "reset after the fault: " << reset.message() << "\n";
    return;
  }
  auto recovered = run_vector_add(device());
  ASSERT_TRUE(recovered.is_ok()) << recovered.message();
  ASSERT_TRUE(recovered->check.has_value());
  EXPECT_TRUE(recovered->check->passed) << recovered->check->description;
}

// Until the controller has collected everything it started, as a window's frames would: a
// collected trace may queue its timed run, which is waited for too.
void wait_until_idle(ui::AppController& controller) {
  controller.wait_until_idle(std::chrono::seconds(60));
}

TEST(StickyErrorApp, AfterAFaultTheAppResetsOrMovesToTheEmulatorAndKeepsWorking) {
  auto gl = platform::EglContext::create({.allow_software = false});
  if (!gl) GTEST_SKIP() << "no OpenGL on a GPU: " << gl.message();
  auto controller = ui::AppController::create(
      {interop::BackendPreference::kCuda, (*gl)->renderer(), std::nullopt});
  if (!controller) GTEST_SKIP() << "no CUDA device: " << controller.message();
  ui::AppController& app = **controller;
  wait_until_idle(app);
  ASSERT_TRUE(app.state().trace.valid) << app.state().trace.error;

  // The fault happens in the process's CUDA context, which the app shares; its next launch meets
  // it.
  ASSERT_TRUE(testing::launch_faulting_kernel().is_ok());
  app.launch();
  wait_until_idle(app);
  // Reset and back on the GPU, or on the emulator because CUDA cannot go on in this process:
  // either way the user is told which.
  const bool on_gpu = is_gpu(app.state().backend);
  bool told = false;
  for (const auto& message : app.state().messages) {
    told = told || message.text.find(on_gpu ? "The GPU was reset" : "until ThreadLab restarts") !=
                       std::string::npos;
  }
  EXPECT_TRUE(told) << "the user is told what happened";
  std::cout << "after the fault the app runs on: " << to_string(app.state().backend) << " ("
            << app.state().backend_reason << ")\n";

  // And then it works again, with the lesson's picture and its check.
  app.launch();
  wait_until_idle(app);
  EXPECT_TRUE(app.state().trace.valid) << app.state().trace.error;
  EXPECT_EQ(app.state().trace.unwritten, 0u) << "of " << app.state().trace.n;
  for (const auto& message : app.state().messages) std::cout << "message: " << message.text << '\n';
  ASSERT_TRUE(app.state().timed.report.has_value()) << app.state().timed.error;
  ASSERT_TRUE(app.state().timed.report->check.has_value());
  EXPECT_TRUE(app.state().timed.report->check->passed);
}

// Lesson 10's null bug faults in the app's own launch: the lesson's error names the launch that
// returned no error and the synchronisation that returned the fault, and the app goes on as after
// any sticky error (lessons/10_debugging/lesson.md, section 7, says so).
TEST(StickyErrorApp, LessonTensNullBugIsNamedAndSurvived) {
  auto gl = platform::EglContext::create({.allow_software = false});
  if (!gl) GTEST_SKIP() << "no OpenGL on a GPU: " << gl.message();
  auto controller = ui::AppController::create(
      {interop::BackendPreference::kCuda, (*gl)->renderer(), std::nullopt});
  if (!controller) GTEST_SKIP() << "no CUDA device: " << controller.message();
  ui::AppController& app = **controller;
  wait_until_idle(app);
  app.select_lesson("debugging");
  wait_until_idle(app);
  app.set_param("bug", "null");
  app.launch();
  wait_until_idle(app);
  bool named = false;
  bool told = false;
  const bool on_gpu = is_gpu(app.state().backend);
  for (const auto& message : app.state().messages) {
    std::cout << "message: " << message.text << '\n';
    named = named || message.text.find("synchronisation returned") != std::string::npos;
    told = told || message.text.find(on_gpu ? "The GPU was reset" : "until ThreadLab restarts") !=
                       std::string::npos;
  }
  named = named || app.state().timed.error.find("synchronisation returned") != std::string::npos ||
          app.state().trace.error.find("synchronisation returned") != std::string::npos;
  EXPECT_TRUE(named) << "the fault is named: " << app.state().timed.error << " / "
                     << app.state().trace.error;
  EXPECT_TRUE(told) << "the user is told what happened";

  // The right kernel then runs, on the GPU after a reset or on the emulator.
  app.set_param("bug", "none");
  app.launch();
  wait_until_idle(app);
  EXPECT_TRUE(app.state().trace.valid) << app.state().trace.error;
  ASSERT_TRUE(app.state().timed.report.has_value()) << app.state().timed.error;
  ASSERT_TRUE(app.state().timed.report->check.has_value());
  EXPECT_TRUE(app.state().timed.report->check->passed);
}

}  // namespace
}  // namespace tl
