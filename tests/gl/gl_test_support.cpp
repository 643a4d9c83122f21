#include "gl_test_support.hpp"

#include <cstdlib>
#include <memory>
#include <string>

namespace tl::testing {

platform::EglContext* shared_egl_context(std::string* error) {
  static std::string creation_error;
  static std::unique_ptr<platform::EglContext> context = [] {
    Result<std::unique_ptr<platform::EglContext>> created = platform::EglContext::create();
    if (!created) {
      creation_error = created.message();
      return std::unique_ptr<platform::EglContext>();
    }
    return std::move(*created);
  }();
  if (error != nullptr) *error = creation_error;
  return context.get();
}

void GlTest::SetUp() {
  std::string error;
  platform::EglContext* context = shared_egl_context(&error);
  ASSERT_NE(context, nullptr) << "no headless OpenGL context: " << error;
  const Status current = context->make_current();
  ASSERT_TRUE(current.is_ok()) << current.message();
}

Rgba8 pixel_at(const std::vector<std::uint8_t>& rgba, int width, int x, int y) {
  const std::size_t offset = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                              static_cast<std::size_t>(x)) *
                             4;
  return {rgba.at(offset), rgba.at(offset + 1), rgba.at(offset + 2), rgba.at(offset + 3)};
}

::testing::AssertionResult near_color(const Rgba8& actual, const Rgb& expected, int tolerance) {
  const auto want = to_rgb8(expected);
  const int got[3] = {actual.r, actual.g, actual.b};
  for (int c = 0; c < 3; ++c) {
    if (std::abs(got[c] - static_cast<int>(want[c])) > tolerance) {
      return ::testing::AssertionFailure()
             << "pixel (" << got[0] << ", " << got[1] << ", " << got[2] << ") is not within "
             << tolerance << " of (" << int{want[0]} << ", " << int{want[1]} << ", " << int{want[2]}
             << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tl::testing
