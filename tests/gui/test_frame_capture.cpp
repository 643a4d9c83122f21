// The plot's "Export PNG": the requested part of the frame, scaled to framebuffer pixels, saved.

#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "frame_capture.hpp"

namespace tl::ui {
namespace {

// A 40×30 frame, red left of x = 20 and blue right of it.
RgbaImage frame() {
  RgbaImage image{40, 30, {}};
  for (int y = 0; y < 30; ++y) {
    for (int x = 0; x < 40; ++x) {
      const bool left = x < 20;
      image.pixels.insert(image.pixels.end(), {static_cast<std::uint8_t>(left ? 255 : 0), 0,
                                               static_cast<std::uint8_t>(left ? 0 : 255), 255});
    }
  }
  return image;
}

TEST(FrameCapture, SavesTheRequestedPartAtFramebufferScale) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "threadlab_plot_capture.png";
  std::filesystem::remove(path);
  // UI coordinates on a display with twice as many framebuffer pixels: (12, 5) 8×10 in the UI is
  // (24, 10) 16×20 in the frame, all of it right of x = 20: blue.
  const CaptureRequest request{path.string(), 12, 5, 8, 10};
  ASSERT_TRUE(save_frame_part(request, frame(), 2.0f, 2.0f).is_ok());
  int width = 0;
  int height = 0;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &width, &height, &channels, 4);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(width, 16);
  EXPECT_EQ(height, 20);
  EXPECT_EQ(data[0], 0);
  EXPECT_EQ(data[2], 255);
  stbi_image_free(data);
}

TEST(FrameCapture, AnAreaOutsideTheFrameOrAnUnwritablePathIsAnError) {
  EXPECT_FALSE(save_frame_part({"x.png", 100, 100, 5, 5}, frame(), 1, 1).is_ok());
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("threadlab-missing-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  const std::string path = (folder / "plot.png").string();
  const Status unwritable = save_frame_part({path, 0, 0, 5, 5}, frame(), 1, 1);
  ASSERT_FALSE(unwritable.is_ok());
  EXPECT_NE(unwritable.message().find(path), std::string::npos) << unwritable.message();
  EXPECT_FALSE(std::filesystem::exists(folder)) << "the capture created the missing folder";
}

}  // namespace
}  // namespace tl::ui
