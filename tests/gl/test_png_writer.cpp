#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "render/png_writer.hpp"

namespace tl {
namespace {

std::filesystem::path temp_png(const char* name) {
  return std::filesystem::temp_directory_path() /
         (std::string("threadlab_") + name + "_" + std::to_string(::getpid()) + ".png");
}

TEST(PngWriter, WrittenImageReadsBackIdentical) {
  constexpr int kWidth = 37;  // odd width: no row padding may sneak in
  constexpr int kHeight = 11;
  std::vector<std::uint8_t> rgba(kWidth * kHeight * 4);
  for (std::size_t i = 0; i < rgba.size(); ++i) {
    rgba[i] = static_cast<std::uint8_t>((i * 31 + i / 4) % 256);
  }
  const std::filesystem::path path = temp_png("roundtrip");
  ASSERT_TRUE(render::write_png(path, kWidth, kHeight, rgba).is_ok());
  int width = 0;
  int height = 0;
  int channels = 0;
  stbi_uc* loaded = stbi_load(path.c_str(), &width, &height, &channels, 4);
  ASSERT_NE(loaded, nullptr) << stbi_failure_reason();
  EXPECT_EQ(width, kWidth);
  EXPECT_EQ(height, kHeight);
  EXPECT_EQ(channels, 4);
  const std::vector<std::uint8_t> back(loaded, loaded + rgba.size());
  stbi_image_free(loaded);
  std::filesystem::remove(path);
  EXPECT_EQ(back, rgba);  // row 0 of the buffer is the top row of the file
}

TEST(PngWriter, MissingFolderIsAnIoError) {
  std::vector<std::uint8_t> rgba(4 * 4 * 4, 255);
  // A folder of this run's own that surely does not exist (a fixed name at / outlives a run that
  // created it by mistake, and then every later run passes).
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("threadlab-missing-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  const std::filesystem::path path = folder / "out.png";
  const Status status = render::write_png(path, 4, 4, rgba);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kIoError);
  EXPECT_NE(status.message().find(path.string()), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(folder)) << "the writer created the missing folder";
}

TEST(PngWriter, SizeMismatchIsRejected) {
  std::vector<std::uint8_t> rgba(10, 0);
  const Status status = render::write_png(temp_png("mismatch"), 4, 4, rgba);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace tl
