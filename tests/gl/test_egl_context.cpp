#include <glad/gl.h>
#include <gtest/gtest.h>

#include "gl_test_support.hpp"
#include "platform/egl_context.hpp"

namespace tl {
namespace {

using testing::GlTest;

TEST_F(GlTest, ProvidesOpenGl43Core) {
  platform::EglContext* context = testing::shared_egl_context();
  ASSERT_NE(context, nullptr);
  EXPECT_FALSE(context->renderer().empty());
  EXPECT_FALSE(context->vendor().empty());
  GLint major = 0;
  GLint minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  EXPECT_TRUE(major > 4 || (major == 4 && minor >= 3)) << major << "." << minor;
  GLint profile = 0;
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
  // The software flag follows the renderer name (llvmpipe here, "NVIDIA ..." on the GPU machine).
  if (platform::is_software_renderer(context->renderer())) {
    EXPECT_TRUE(context->is_software());
  }
  std::printf("headless context: %s / %s / %s via %s (%s)\n", context->renderer().c_str(),
              context->vendor().c_str(), context->gl_version().c_str(),
              context->display_source().c_str(), context->selection_log().c_str());
}

TEST_F(GlTest, SecondContextDoesNotBreakTheFirst) {
  {
    Result<std::unique_ptr<platform::EglContext>> second = platform::EglContext::create();
    ASSERT_TRUE(second.is_ok()) << second.message();
    ASSERT_TRUE((*second)->make_current().is_ok());
    EXPECT_NE(glGetString(GL_RENDERER), nullptr);
  }
  // Both contexts share one EGL display; destroying the second must not terminate it.
  platform::EglContext* first = testing::shared_egl_context();
  ASSERT_TRUE(first->make_current().is_ok());
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  EXPECT_NE(buffer, 0u);
  glDeleteBuffers(1, &buffer);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(SoftwareRenderer, RecognisesMesaRasterizers) {
  EXPECT_TRUE(platform::is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
  EXPECT_TRUE(platform::is_software_renderer("softpipe"));
  EXPECT_FALSE(platform::is_software_renderer("NVIDIA H200/PCIe/SSE2"));
}

}  // namespace
}  // namespace tl
