// The Kernel Lab's promise to the app: learners' kernels that fault or never end cost only their
// worker processes. Twenty of them in a row, then this process — which holds a CUDA context and
// an OpenGL buffer registered with CUDA, as the window does — still traces a lesson through
// interop. Run under compute-sanitizer (application only) in the GPU pass: the app's side stays
// clean.

#include <gtest/gtest.h>

#include <cstdlib>

#include "gpu_test_environment.hpp"
#include "interop/gl_trace_sink.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/lab_check.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"
#include "platform/egl_context.hpp"
#include "render/trace_buffer.hpp"

namespace tl::testing {
namespace {

class LabIsolationGpu : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    auto gl = platform::EglContext::create({});
    if (!gl) GTEST_SKIP() << "no headless OpenGL context: " << gl.message();
    gl_ = std::move(*gl);
    if (gl_->is_software()) GTEST_SKIP() << "OpenGL is not on the GPU here: " << gl_->renderer();
    buffer_ = std::make_unique<render::TraceBuffer>();
    sink_ = interop::make_gl_trace_sink(BackendKind::kCudaInterop, *buffer_);
  }

  void trace_a_lesson_through_interop() {
    const std::uint64_t n = 1 << 20;
    const LaunchConfig config = lessons::covering_config(n, 256);
    auto check = compute::trace_vector_add(device(), n, config, *sink_);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed);
    auto summary = buffer_->summarize(256);
    ASSERT_TRUE(summary.is_ok()) << summary.message();
    EXPECT_EQ(summary->unwritten, 0u);
  }

  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<render::TraceBuffer> buffer_;
  std::unique_ptr<compute::TraceSink> sink_;
};

TEST_F(LabIsolationGpu, TwentyFaultingOrEndlessKernelsThenTheLessonsStillRunWithInterop) {
  trace_a_lesson_through_interop();
  const lab::Exercise& exercise = *lab::find_exercise("vector-add");
  const std::string illegal_address =
      "__global__ void vector_add(const float* a, const float* b, float* c, int n) {\n"
      "  float* nowhere = (float*)0x10;\n  nowhere[threadIdx.x] = 1.0f;\n}\n";
  const std::string endless =
      "__global__ void vector_add(const float* a, const float* b, float* c, int n) {\n"
      "  while (clock64() >= 0) {}  // the clock makes the loop a side effect nobody may drop\n}\n";
  const std::string trap =
      "__global__ void vector_add(const float* a, const float* b, float* c, int n) {\n"
      "  __trap();\n}\n";
  lab::LabOptions options;
  options.backend = lab::LabBackend::kGpu;
  const char* executable = std::getenv("THREADLAB_EXECUTABLE");
  options.worker_executable = executable != nullptr ? executable : THREADLAB_EXECUTABLE;
  options.cache_dir = ::testing::TempDir() + "threadlab-lab-isolation";
  options.timeout = std::chrono::milliseconds(500);
  options.timed_repeats = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string& source = i % 3 == 0 ? illegal_address : i % 3 == 1 ? endless : trap;
    // An endless kernel is stopped after half a second; a faulting one gets time for the driver
    // to report its error (a trap's took longer than 500 ms on the H100).
    options.timeout = std::chrono::milliseconds(i % 3 == 1 ? 500 : 5000);
    const lab::CheckVerdict verdict = lab::check_submission(exercise, source, options);
    EXPECT_EQ(verdict.outcome, lab::Outcome::kFailed)
        << "submission " << i << ": " << verdict.reason;
    if (i % 3 == 0) {
      EXPECT_NE(verdict.reason.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos)
          << verdict.reason;
      EXPECT_NE(verdict.reason.find("'vector_add'"), std::string::npos) << verdict.reason;
    } else if (i % 3 == 1) {
      EXPECT_NE(verdict.reason.find("did not finish within 500 ms"), std::string::npos)
          << verdict.reason;
    } else {
      EXPECT_NE(verdict.reason.find("CUDA_ERROR"), std::string::npos) << verdict.reason;
    }
  }
  // The app's context and its GL registration were never touched: the lesson still runs.
  trace_a_lesson_through_interop();
  // And a correct kernel passes in a fresh worker.
  options.timeout = std::chrono::milliseconds(2000);
  const lab::CheckVerdict after = lab::check_submission(exercise, exercise.solution, options);
  EXPECT_EQ(after.outcome, lab::Outcome::kPassed) << after.reason;
}

}  // namespace
}  // namespace tl::testing
