// The capstone's live views on a GPU, the window's whole path: the headless UI on the app's own
// backend choice (interop where OpenGL runs on the CUDA GPU), the training lesson opened, Step
// pressed; while frames are drawn the session trains on its thread, the class map is mapped for
// CUDA on the UI thread and written by the network's softmax on the training thread, then unmapped
// and coloured. The boundary's values in the GL buffer are checked against the network's own
// probabilities, and the path the view names against the backend.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "app_controller.hpp"
#include "gpu_test_environment.hpp"
#include "headless_ui.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/09_training/training.hpp"
#include "lessons/09_training/training_picture.hpp"
#include "lessons/09_training/views/training_live.hpp"

namespace tl {
namespace {

class TrainingViewsGpu : public testing::GpuTest {};

TEST_F(TrainingViewsGpu, StepTrainsAndTheBoundaryReachesOpenGlByTheBackendsPath) {
  auto ui = ui::HeadlessUi::create(1600, 1000, 1.0f);
  if (!ui) GTEST_SKIP() << "no headless OpenGL context: " << ui.message();
  const std::filesystem::path folder =
      std::filesystem::path(::testing::TempDir()) / "threadlab_training_views_gpu";
  ui::ControllerOptions options{interop::BackendPreference::kAuto, (*ui)->renderer(),
                                folder / "ceilings.json"};
  options.lab.folder = folder / "lab";
  auto app = ui::AppController::create(options);
  ASSERT_TRUE(app.is_ok()) << app.message();
  ui::AppController& controller = **app;
  std::cout << "GL renderer: " << (*ui)->renderer()
            << "\nbackend: " << to_string(controller.state().backend) << '\n';
  ASSERT_TRUE(is_gpu(controller.state().backend)) << controller.state().backend_reason;
  controller.wait_until_idle(std::chrono::minutes(2));
  controller.select_lesson(std::string(lessons::kTrainingId));
  ASSERT_EQ(controller.state().controls.lesson_id, lessons::kTrainingId);
  controller.wait_until_idle(std::chrono::minutes(2));
  auto* live = ui::training_views::training_live(controller);
  ASSERT_NE(live, nullptr);

  const auto frames_until = [&](auto done, const char* what) {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (!done()) {
      ASSERT_LT(std::chrono::steady_clock::now(), limit) << "never: " << what;
      (*ui)->draw_frame(controller);
    }
  };
  frames_until([&] { return live->snapshot().phase == lessons::TrainingPhase::kPaused; },
               "the network prepared");
  live->form().steps_per_click = 200;
  live->step();
  frames_until(
      [&] {
        return live->snapshot().steps == 200 && !live->busy() && live->boundary_step() == 200;
      },
      "200 steps trained and their boundary drawn");
  const lessons::TrainingSnapshot& s = live->snapshot();
  ASSERT_TRUE(s.error.empty()) << s.error;
  std::cout << "after 200 steps: accuracy " << s.accuracy.back().value << ", boundary "
            << live->boundary_path() << '\n';
  if (controller.state().backend == BackendKind::kCudaInterop) {
    EXPECT_NE(live->boundary_path().find("interop"), std::string::npos) << live->boundary_path();
    EXPECT_EQ(live->boundary_path().find("failed"), std::string::npos) << live->boundary_path();
  }
  // What the GL buffer holds: probabilities per point, each pair summing to one, both classes
  // present (the spirals are learnt past chance in 200 steps).
  const int side = live->session().options().boundary_side;
  const std::size_t points = static_cast<std::size_t>(side) * side;
  auto values = live->read_class_map(points * 2);
  ASSERT_TRUE(values.is_ok()) << values.message();
  std::size_t class_one = 0;
  for (std::size_t p = 0; p < points; ++p) {
    ASSERT_NEAR((*values)[2 * p] + (*values)[2 * p + 1], 1.0f, 1e-4f) << p;
    if ((*values)[2 * p + 1] > (*values)[2 * p]) ++class_one;
  }
  EXPECT_GT(class_one, points / 10);
  EXPECT_LT(class_one, points * 9 / 10);
  EXPECT_GT(s.accuracy.back().value, 0.6);
  auto pixels = live->class_map().read_pixels();
  ASSERT_TRUE(pixels.is_ok()) << pixels.message();
  EXPECT_EQ(pixels->size(), points * 4);

  // Training running while frames map and unmap the buffer: then leaving the lesson stops it.
  live->start();
  frames_until([&] { return live->snapshot().steps >= 400; }, "training running");
  controller.select_lesson(std::string(lessons::kVectorAddId));
  EXPECT_EQ(controller.lesson_live(), nullptr);
  (*ui)->draw_frame(controller);
}

}  // namespace
}  // namespace tl
