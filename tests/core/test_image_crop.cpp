#include "core/image_crop.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

// A 4×3 image whose pixel (x, y) has red = x, green = y.
RgbaImage gradient() {
  RgbaImage image{4, 3, {}};
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) {
      image.pixels.insert(image.pixels.end(),
                          {static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), 0, 255});
    }
  }
  return image;
}

TEST(ImageCrop, KeepsTheRectangleRowByRow) {
  auto cut = crop_rgba(gradient(), {1, 1, 2, 2});
  ASSERT_TRUE(cut.is_ok()) << cut.message();
  EXPECT_EQ(cut->width, 2);
  EXPECT_EQ(cut->height, 2);
  ASSERT_EQ(cut->pixels.size(), 16u);
  EXPECT_EQ(cut->pixels[0], 1);  // (1, 1)
  EXPECT_EQ(cut->pixels[1], 1);
  EXPECT_EQ(cut->pixels[4], 2);  // (2, 1)
  EXPECT_EQ(cut->pixels[8], 1);  // (1, 2)
  EXPECT_EQ(cut->pixels[9], 2);
}

TEST(ImageCrop, ClipsToTheImage) {
  auto cut = crop_rgba(gradient(), {2, -5, 10, 6});
  ASSERT_TRUE(cut.is_ok());
  EXPECT_EQ(cut->width, 2);
  EXPECT_EQ(cut->height, 1);
  EXPECT_EQ(cut->pixels[0], 2);
  EXPECT_EQ(cut->pixels[1], 0);
}

TEST(ImageCrop, NothingInsideOrABadBufferIsAnError) {
  EXPECT_FALSE(crop_rgba(gradient(), {10, 10, 5, 5}).is_ok());
  EXPECT_FALSE(crop_rgba(gradient(), {0, 0, 0, 3}).is_ok());
  RgbaImage broken = gradient();
  broken.pixels.pop_back();
  EXPECT_FALSE(crop_rgba(broken, {0, 0, 1, 1}).is_ok());
}

}  // namespace
}  // namespace tl
