// The capstone's decision boundary on a GPU, the window's path: the network's own softmax writes
// the boundary's probabilities straight into the class map's OpenGL buffer through CUDA-GL interop
// (mapped on this thread, written by the training session's thread), and through the copy path
// where interop is not possible; each checked against a CPU evaluation of the same network
// (tests/gl/training_boundary_check.hpp).

#include <gtest/gtest.h>

#include "../gl/training_boundary_check.hpp"
#include "gpu_test_environment.hpp"
#include "interop/class_map_sink.hpp"
#include "platform/egl_context.hpp"

namespace tl::testing {
namespace {

class TrainingBoundaryGpu : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    auto gl = platform::EglContext::create({});
    if (!gl) GTEST_SKIP() << "no headless OpenGL context: " << gl.message();
    gl_ = std::move(*gl);
  }

  static lessons::TrainingSettings spirals() {
    lessons::TrainingSettings settings;  // the window's GPU defaults, fewer examples
    settings.samples = 1000;
    settings.seed = 5;
    return settings;
  }

  std::unique_ptr<platform::EglContext> gl_;
};

TEST_F(TrainingBoundaryGpu, InteropWritesTheNetworksBoundaryIntoTheGlBuffer) {
  if (gl_->is_software()) GTEST_SKIP() << "OpenGL is not on the GPU here: " << gl_->renderer();
  render::ClassMap map;
  auto sink = interop::make_class_map_sink(BackendKind::kCudaInterop, map);
  expect_boundary_is_the_networks(device(), *sink, map, spirals(), 60);
  // Again: the registration is reused, the values replaced.
  expect_boundary_is_the_networks(device(), *sink, map, spirals(), 30);
}

TEST_F(TrainingBoundaryGpu, TheCopyPathDeliversTheSameBoundary) {
  render::ClassMap map;
  auto sink = interop::make_class_map_sink(BackendKind::kCudaCopy, map);
  expect_boundary_is_the_networks(device(), *sink, map, spirals(), 60);
}

}  // namespace
}  // namespace tl::testing
