// The mapping view on a GPU, the window's whole path: the headless UI, the app's own backend choice
// (CUDA-GL interop where OpenGL runs on the CUDA GPU), launches driven the ways a person, a link
// and a demo script drive them. After each, the records the view draws are read back from the GL
// buffer and checked against what the vector add's threads wrote: every element once, by the thread
// the launch gives it. A registered GL buffer whose storage changed under CUDA, or one left mapped,
// reads zeros or stale bytes here (the README's demo pictures once showed every element "never
// written" while the launch's own count said none was).

#include <glad/gl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "app_controller.hpp"
#include "core/classroom/demo_script.hpp"
#include "headless_ui.hpp"

namespace tl {
namespace {

// The app as `threadlab gui --headless` and `threadlab demo --headless` make it: the UI's OpenGL
// context first, then the controller, which starts CUDA. Optionally with a ceilings cache, as the
// window has (headless runs measure the device's ceilings afresh, after their first launch).
class MappingPictureGpu : public ::testing::Test {
 protected:
  void open(bool with_ceilings_cache) {
    auto ui = ui::HeadlessUi::create(1600, 1000, 1.0f);
    if (!ui) GTEST_SKIP() << "no headless OpenGL context: " << ui.message();
    ui_ = std::move(*ui);
    const std::filesystem::path folder =
        std::filesystem::path(::testing::TempDir()) / "threadlab_mapping_picture_gpu";
    ui::ControllerOptions options{interop::BackendPreference::kAuto, ui_->renderer(), std::nullopt};
    if (with_ceilings_cache) options.ceilings_cache = folder / "ceilings.json";
    options.lab.folder = folder / "lab";
    auto app = ui::AppController::create(options);
    ASSERT_TRUE(app.is_ok()) << app.message();
    app_ = std::move(*app);
    std::cout << "backend: " << to_string(app_->state().backend) << " ("
              << app_->state().backend_reason << ")\n";
    if (!is_gpu(app_->state().backend)) GTEST_SKIP() << "no CUDA device";
  }
  void TearDown() override {
    app_.reset();  // its GL objects go before the context
    ui_.reset();
  }

  void settle() {
    app_->wait_until_idle(std::chrono::minutes(3));
    for (int frame = 0; frame < 3; ++frame) ui_->draw_frame(*app_);
  }

  // The vector add launched with `block` threads per block, one element per thread: element i was
  // written once, by block i / block.
  void expect_records_of_vector_add(std::uint64_t n, std::uint32_t block) {
    const auto& trace = app_->state().trace;
    ASSERT_TRUE(trace.valid) << trace.error;
    ASSERT_EQ(trace.n, n);
    EXPECT_EQ(trace.unwritten, 0u);
    const auto& buffer = app_->trace_buffer();
    ASSERT_GE(buffer.count(), n);
    std::vector<std::uint64_t> samples{0, 1, block - 1, block, n / 3, n / 2, n - block, n - 1};
    for (std::uint64_t i = 7; i < n; i += n / 61 + 1) samples.push_back(i);
    int wrong = 0;
    for (const std::uint64_t i : samples) {
      if (i >= n) continue;
      auto record = buffer.read(i);
      ASSERT_TRUE(record.is_ok()) << record.message();
      const bool right = record->writes == 1 && record->block == i / block &&
                         (record->thread_and_sm & kTraceThreadMask) == i % block;
      EXPECT_TRUE(right) << "element " << i << " of " << n << ": block " << record->block
                         << ", thread and SM " << record->thread_and_sm << ", writes "
                         << record->writes;
      if (!right && ++wrong > 4) break;
    }
    // And the picture drawn from them: coloured by block, more than the one colour an unwritten
    // (all-zero) buffer gives.
    auto texture = app_->render_mapping({320, 200});
    ASSERT_TRUE(texture.is_ok()) << texture.message();
    std::vector<std::uint8_t> pixels(320 * 200 * 4);
    glBindTexture(GL_TEXTURE_2D, *texture);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    std::set<std::uint32_t> colours;
    for (std::size_t p = 0; p < pixels.size(); p += 4) {
      colours.insert(pixels[p] | pixels[p + 1] << 8 | pixels[p + 2] << 16);
    }
    EXPECT_GT(colours.size(), 3u) << "the picture is one or two colours";
  }

  void play_demo() {
    auto script = classroom::parse_demo_script(R"(title = "mapping"
[[step]]
lesson = "vector-add"
set = { n = "2^24", grid = "auto", block = 256 }
color = "block"
launch = true
[[step]]
set = { n = 1000, grid = 4, block = 256 }
launch = true
[[step]]
set = { n = 2048, grid = 1, block = 2048 }
launch = true
[[step]]
set = { n = "2^20", grid = 4096, block = 256 }
launch = true
[[step]]
set = { n = 1000, grid = 4, block = 256 }
sweep = "size"
)",
                                               "test.toml");
    ASSERT_TRUE(script.is_ok()) << script.message();
    app_->start_demo(std::move(*script), /*timed_advance=*/false);
    settle();
    expect_records_of_vector_add(1u << 24, 256);
    app_->play_demo_step(1);
    settle();
    expect_records_of_vector_add(1000, 256);
    app_->play_demo_step(2);  // refused: too many threads per block
    settle();
    app_->play_demo_step(3);
    settle();
    expect_records_of_vector_add(1u << 20, 256);
    app_->play_demo_step(4);  // a sweep, then the picture of its last launch
    settle();
    std::cout << "after the sweep the picture shows " << app_->state().trace.n << " elements\n";
  }

  std::unique_ptr<ui::HeadlessUi> ui_;
  std::unique_ptr<ui::AppController> app_;
};

constexpr const char* kLargeLaunch =
    "threadlab:set?lesson=vector-add&n=2^24&grid=auto&block=256&color=block&launch";
constexpr const char* kSmallLaunch =
    "threadlab:set?lesson=vector-add&n=1000&grid=4&block=256&color=block&launch";

TEST_F(MappingPictureGpu, ALinkAfterTheStartUpLaunchDrawsWhatItsThreadsWrote) {
  open(/*with_ceilings_cache=*/true);
  if (IsSkipped()) return;
  app_->wait_until_idle(std::chrono::minutes(3));
  app_->apply_lesson_action(kLargeLaunch);
  settle();
  expect_records_of_vector_add(1u << 24, 256);
  app_->apply_lesson_action(kSmallLaunch);
  settle();
  expect_records_of_vector_add(1000, 256);
}

TEST_F(MappingPictureGpu, AHeadlessDemoDrawsWhatItsThreadsWroteAtEveryStep) {
  open(/*with_ceilings_cache=*/false);
  if (IsSkipped()) return;
  play_demo();
}

TEST_F(MappingPictureGpu, ADemoWithKnownCeilingsDrawsWhatItsThreadsWroteAtEveryStep) {
  open(/*with_ceilings_cache=*/true);
  if (IsSkipped()) return;
  play_demo();
}

}  // namespace
}  // namespace tl
