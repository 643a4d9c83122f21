#pragma once
// Shared pieces of the headless GL tests: one EGL context for the whole test binary, and pixel
// helpers.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/color_scheme.hpp"
#include "platform/egl_context.hpp"

namespace tl::testing {

// The process-wide headless context, created on first use; null (with the reason in `error`) when
// no context can be made.
platform::EglContext* shared_egl_context(std::string* error = nullptr);

// Fixture for tests that need a current GL context: fails (not skips) without one, because these
// tests exist to prove the headless path works on this machine.
class GlTest : public ::testing::Test {
 protected:
  void SetUp() override;
};

struct Rgba8 {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  std::uint8_t a = 0;
};

// The pixel at (x, y), top-left origin, of an RGBA image with rows top first.
Rgba8 pixel_at(const std::vector<std::uint8_t>& rgba, int width, int x, int y);

// Whether every channel is within `tolerance` (in 1/255 steps) of the expected colour.
::testing::AssertionResult near_color(const Rgba8& actual, const Rgb& expected, int tolerance = 2);

}  // namespace tl::testing
