// Traces delivered into the renderer's OpenGL buffer by the interop path and by the copy path, on a
// real GPU with a headless EGL context.

#include <gtest/gtest.h>

#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "interop/backend_selection.hpp"
#include "interop/gl_trace_sink.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"
#include "platform/egl_context.hpp"
#include "render/trace_buffer.hpp"

namespace tl::testing {
namespace {

class TraceToGlGpu : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    auto gl = platform::EglContext::create({});
    if (!gl) GTEST_SKIP() << "no headless OpenGL context: " << gl.message();
    gl_ = std::move(*gl);
    buffer_ = std::make_unique<render::TraceBuffer>();
  }

  // Every element's record, read back from the GL buffer, must equal i = blockIdx.x * blockDim.x +
  // threadIdx.x.
  void expect_analytic_mapping(std::uint64_t n, const LaunchConfig& config) {
    ASSERT_EQ(buffer_->count(), n);
    const std::uint64_t step = n > 4096 ? n / 4096 : 1;
    for (std::uint64_t i = 0; i < n; i += step) {
      auto record = buffer_->read(i);
      ASSERT_TRUE(record.is_ok()) << record.message();
      const DecodedTrace d = decode(*record, i, {1, n}, config);
      ASSERT_EQ(d.writes, 1u) << i;
      ASSERT_EQ(d.block.x, i / config.block.x) << i;
      ASSERT_EQ(d.thread.x, i % config.block.x) << i;
      ASSERT_GE(d.sm, 0) << i;
    }
    auto summary = buffer_->summarize(config.block.x);
    ASSERT_TRUE(summary.is_ok()) << summary.message();
    EXPECT_EQ(summary->unwritten, 0u);
    EXPECT_EQ(summary->written_more, 0u);
  }

  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<render::TraceBuffer> buffer_;
};

TEST_F(TraceToGlGpu, InteropIsChosenWhenOpenGlRunsOnTheCudaGpu) {
  auto choice = interop::choose_backend(interop::BackendPreference::kAuto, true);
  ASSERT_TRUE(choice.is_ok()) << choice.message();
  std::cout << "GL renderer: " << gl_->renderer() << "\nbackend: " << to_string(choice->kind)
            << " — " << choice->reason << '\n';
  if (gl_->is_software()) {
    EXPECT_EQ(choice->kind, BackendKind::kCudaCopy) << choice->reason;
  } else {
    EXPECT_EQ(choice->kind, BackendKind::kCudaInterop) << choice->reason;
  }
}

TEST_F(TraceToGlGpu, InteropWritesTheTraceStraightIntoTheGlBuffer) {
  if (gl_->is_software()) GTEST_SKIP() << "OpenGL is not on the GPU here: " << gl_->renderer();
  auto sink = interop::make_gl_trace_sink(BackendKind::kCudaInterop, *buffer_);
  const std::uint64_t n = std::uint64_t{1} << 24;
  const LaunchConfig config = lessons::covering_config(n, 256);
  auto check = compute::trace_vector_add(device(), n, config, *sink);
  ASSERT_TRUE(check.is_ok()) << check.message();
  EXPECT_TRUE(check->passed);
  expect_analytic_mapping(n, config);
  // A second, smaller launch reuses the registration and must not leave old records behind.
  const LaunchConfig small{{3, 1, 1}, {128, 1, 1}};
  auto again = compute::trace_vector_add(device(), 1000, small, *sink);
  ASSERT_TRUE(again.is_ok()) << again.message();
  auto summary = buffer_->summarize(128);
  ASSERT_TRUE(summary.is_ok());
  EXPECT_EQ(summary->unwritten, 1000u - 384u);
}

TEST_F(TraceToGlGpu, CopyPathDeliversTheSameRecords) {
  auto sink = interop::make_gl_trace_sink(BackendKind::kCudaCopy, *buffer_);
  const std::uint64_t n = 1000003;
  const LaunchConfig config = lessons::covering_config(n, 192);
  auto check = compute::trace_vector_add(device(), n, config, *sink);
  ASSERT_TRUE(check.is_ok()) << check.message();
  EXPECT_TRUE(check->passed);
  expect_analytic_mapping(n, config);
}

TEST_F(TraceToGlGpu, InvalidLaunchLeavesTheBufferUnmappedAndUsable) {
  if (gl_->is_software()) GTEST_SKIP() << "OpenGL is not on the GPU here: " << gl_->renderer();
  auto sink = interop::make_gl_trace_sink(BackendKind::kCudaInterop, *buffer_);
  auto failed = compute::trace_vector_add(device(), 4096, {{1, 1, 1}, {4096, 1, 1}}, *sink);
  ASSERT_FALSE(failed.is_ok());
  EXPECT_NE(failed.message().find("failed to launch"), std::string::npos) << failed.message();
  EXPECT_EQ(failed.error().kind, ErrorKind::kCudaError);
  const LaunchConfig config = lessons::covering_config(4096, 256);
  auto ok = compute::trace_vector_add(device(), 4096, config, *sink);
  ASSERT_TRUE(ok.is_ok()) << ok.message();
  expect_analytic_mapping(4096, config);
}

}  // namespace
}  // namespace tl::testing
