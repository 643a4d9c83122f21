// Every character the lesson texts, the kernel sources shown beside them and the panels use is in
// the fonts' glyph ranges: ImGui would draw '?' for any other ("below ?88" instead of "below −88").

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "glyph_ranges.hpp"
#include "theme.hpp"

namespace tl::ui {
namespace {

// The code points of UTF-8 `text`; a malformed sequence becomes U+FFFD, which has no glyph here.
std::vector<char32_t> decode_utf8(const std::string& text) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int extra = lead < 0x80           ? 0
                      : (lead >> 5) == 0x06 ? 1
                      : (lead >> 4) == 0x0E ? 2
                      : (lead >> 3) == 0x1E ? 3
                                            : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) >= text.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t c = extra == 0 ? lead : lead & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k)
      c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    out.push_back(c);
    i += static_cast<std::size_t>(extra) + 1;
  }
  return out;
}

std::vector<std::filesystem::path> shown_files() {
  const std::filesystem::path root = THREADLAB_SOURCE_DIR;
  std::vector<std::filesystem::path> files;
  for (const auto& dir : {root / "lessons", root / "kernels", root / "app" / "ui" / "panels"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".md" || ext == ".cuh" || ext == ".cpp") files.push_back(entry.path());
    }
  }
  return files;
}

// Every character of the shown files, once, with where it first appears.
struct UsedCharacter {
  char32_t c;
  std::string where;
};
std::vector<UsedCharacter> used_characters() {
  std::vector<UsedCharacter> used;
  for (const auto& path : shown_files()) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    int line = 1;
    for (char32_t c : decode_utf8(text.str())) {
      if (c == '\n') ++line;
      if (c == '\n' || c == '\t' || c == '\r') continue;
      const bool seen =
          std::any_of(used.begin(), used.end(), [&](const UsedCharacter& u) { return u.c == c; });
      if (!seen) used.push_back({c, path.string() + ":" + std::to_string(line)});
    }
  }
  return used;
}

TEST(GlyphRanges, CoverEveryCharacterTheLessonsAndPanelsUse) {
  ASSERT_GE(shown_files().size(), 10u) << "the lesson texts and kernels were not found";
  for (const UsedCharacter& u : used_characters()) {
    EXPECT_TRUE(has_ui_glyph(u.c)) << u.where << ": U+" << std::hex << static_cast<unsigned>(u.c)
                                   << " is outside the glyph ranges";
  }
}

TEST(GlyphRanges, TheLoadedFontsDrawEveryCharacterTheLessonsUse) {
  // In range is not enough: the font file must have the glyph too. The code font lacks a few
  // (ᵀ) that its merged fallback supplies.
  ImGui::CreateContext();
  const Fonts fonts = setup_theme(1.0f);
  unsigned char* pixels = nullptr;
  int width = 0;
  int height = 0;
  ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
  ASSERT_NE(pixels, nullptr);
  for (const UsedCharacter& u : used_characters()) {
    const auto c = static_cast<ImWchar>(u.c);
    EXPECT_NE(fonts.body->FindGlyphNoFallback(c), nullptr)
        << u.where << ": U+" << std::hex << static_cast<unsigned>(u.c) << " missing in the UI font";
    EXPECT_NE(fonts.mono->FindGlyphNoFallback(c), nullptr)
        << u.where << ": U+" << std::hex << static_cast<unsigned>(u.c)
        << " missing in the code font";
  }
  ImGui::DestroyContext();
}

TEST(GlyphRanges, DecodeUtf8FindsTheMinusSign) {
  const auto decoded = decode_utf8("a\u2212b");
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[1], U'\u2212');
  EXPECT_TRUE(has_ui_glyph(U'\u2212'));
  EXPECT_TRUE(has_ui_glyph(U'\u1D40'));
  EXPECT_FALSE(has_ui_glyph(U'\u4E00'));  // CJK: not in the fonts' ranges
  EXPECT_EQ(decode_utf8("\xff").front(), U'\uFFFD');
}

}  // namespace
}  // namespace tl::ui
