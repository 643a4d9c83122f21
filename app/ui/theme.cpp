#include "theme.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "glyph_ranges.hpp"

namespace tl::ui {
namespace {

#ifndef THREADLAB_FONT_SANS
#define THREADLAB_FONT_SANS "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#endif
#ifndef THREADLAB_FONT_SANS_BOLD
#define THREADLAB_FONT_SANS_BOLD "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#endif
#ifndef THREADLAB_FONT_MONO_FALLBACK
#define THREADLAB_FONT_MONO_FALLBACK "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#endif
#ifndef THREADLAB_FONT_MONO
#define THREADLAB_FONT_MONO "/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf"
#endif

// The configured path, unless a folder in $THREADLAB_FONT_DIR (colon-separated) holds a file of the
// same name: for systems that keep their fonts elsewhere.
std::string find_font(const char* configured) {
  const std::filesystem::path path(configured);
  if (const char* dirs = std::getenv("THREADLAB_FONT_DIR")) {
    std::string list = dirs;
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t end = list.find(':', start);
      if (end == std::string::npos) end = list.size();
      const std::filesystem::path candidate =
          std::filesystem::path(list.substr(start, end - start)) / path.filename();
      if (std::filesystem::exists(candidate)) return candidate.string();
      start = end + 1;
    }
  }
  return path.string();
}

// Loads `configured`, then merges in `fallback` (when given and found) for the characters the
// first font lacks: ImGui keeps a glyph from the first font that has it, so the fallback only
// fills gaps (JetBrains Mono has no superscript ᵀ; DejaVu Sans Mono does).
ImFont* load(const char* configured, float size, const char* fallback = nullptr) {
  ImGuiIO& io = ImGui::GetIO();
  const std::string path = find_font(configured);
  if (!std::filesystem::exists(path)) return nullptr;
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 2;
  ImFont* font = io.Fonts->AddFontFromFileTTF(path.c_str(), size, &config, kUiGlyphRanges);
  if (font == nullptr || fallback == nullptr) return font;
  const std::string fallback_path = find_font(fallback);
  if (!std::filesystem::exists(fallback_path)) return font;
  ImFontConfig merge = config;
  merge.MergeMode = true;
  io.Fonts->AddFontFromFileTTF(fallback_path.c_str(), size, &merge, kUiGlyphRanges);
  return font;
}

const Palette kDarkPalette{
    {1.00f, 0.42f, 0.40f, 1.0f},   // error
    {1.00f, 0.78f, 0.30f, 1.0f},   // warning
    {0.45f, 0.85f, 0.55f, 1.0f},   // ok
    {0.62f, 0.64f, 0.70f, 1.0f},   // muted
    {0.45f, 0.72f, 1.00f, 1.0f},   // link
    {0.11f, 0.12f, 0.15f, 1.0f},   // code background
    {0.20f, 0.30f, 0.45f, 0.55f},  // highlight
};
// For a projector in a lit room: black, white and saturated colours, nothing mid-grey that washes
// out; muted text stays light enough to read from the back row.
const Palette kHighContrastPalette{
    {1.00f, 0.45f, 0.45f, 1.0f},   // error
    {1.00f, 0.90f, 0.20f, 1.0f},   // warning
    {0.40f, 1.00f, 0.50f, 1.0f},   // ok
    {0.86f, 0.88f, 0.92f, 1.0f},   // muted
    {0.35f, 0.90f, 1.00f, 1.0f},   // link
    {0.00f, 0.00f, 0.00f, 1.0f},   // code background
    {0.10f, 0.35f, 0.75f, 0.75f},  // highlight
};

Palette current_palette = kDarkPalette;

void style_dark(ImGuiStyle& style) {
  ImGui::StyleColorsDark(&style);
  style.Colors[ImGuiCol_WindowBg] = {0.09f, 0.10f, 0.12f, 1.0f};
  style.Colors[ImGuiCol_ChildBg] = {0.12f, 0.13f, 0.16f, 1.0f};
  style.Colors[ImGuiCol_Button] = {0.20f, 0.36f, 0.56f, 1.0f};
  style.Colors[ImGuiCol_ButtonHovered] = {0.26f, 0.46f, 0.70f, 1.0f};
  style.Colors[ImGuiCol_ButtonActive] = {0.16f, 0.30f, 0.48f, 1.0f};
}

void style_high_contrast(ImGuiStyle& style) {
  ImGui::StyleColorsDark(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = {1.0f, 1.0f, 1.0f, 1.0f};
  c[ImGuiCol_TextDisabled] = {0.75f, 0.75f, 0.75f, 1.0f};
  c[ImGuiCol_WindowBg] = {0.0f, 0.0f, 0.0f, 1.0f};
  c[ImGuiCol_ChildBg] = {0.04f, 0.04f, 0.05f, 1.0f};
  c[ImGuiCol_PopupBg] = {0.0f, 0.0f, 0.0f, 0.98f};
  c[ImGuiCol_Border] = {0.85f, 0.85f, 0.85f, 1.0f};
  c[ImGuiCol_FrameBg] = {0.10f, 0.10f, 0.12f, 1.0f};
  c[ImGuiCol_FrameBgHovered] = {0.20f, 0.25f, 0.40f, 1.0f};
  c[ImGuiCol_FrameBgActive] = {0.25f, 0.35f, 0.60f, 1.0f};
  c[ImGuiCol_Button] = {0.00f, 0.33f, 0.80f, 1.0f};
  c[ImGuiCol_ButtonHovered] = {0.10f, 0.45f, 1.00f, 1.0f};
  c[ImGuiCol_ButtonActive] = {0.00f, 0.25f, 0.60f, 1.0f};
  c[ImGuiCol_Header] = {0.00f, 0.33f, 0.80f, 1.0f};
  c[ImGuiCol_HeaderHovered] = {0.10f, 0.45f, 1.00f, 1.0f};
  c[ImGuiCol_Tab] = {0.10f, 0.10f, 0.14f, 1.0f};
  c[ImGuiCol_TabActive] = {0.00f, 0.33f, 0.80f, 1.0f};
  c[ImGuiCol_TabHovered] = {0.10f, 0.45f, 1.00f, 1.0f};
  c[ImGuiCol_CheckMark] = {1.0f, 1.0f, 1.0f, 1.0f};
  c[ImGuiCol_PlotLines] = {1.0f, 1.0f, 1.0f, 1.0f};
  c[ImGuiCol_MenuBarBg] = {0.06f, 0.06f, 0.08f, 1.0f};
  style.FrameBorderSize = 1.0f;
  style.ChildBorderSize = 2.0f;
}

}  // namespace

const Palette& palette() {
  return current_palette;
}

Fonts setup_theme(float scale, classroom::Theme theme) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  Fonts fonts;
  fonts.body = load(THREADLAB_FONT_SANS, 16.0f * scale);
  if (fonts.body == nullptr) {
    ImFontConfig config;
    config.SizePixels = 13.0f * scale;
    fonts.body = io.Fonts->AddFontDefault(&config);
  }
  fonts.bold = load(THREADLAB_FONT_SANS_BOLD, 16.0f * scale);
  fonts.heading = load(THREADLAB_FONT_SANS_BOLD, 22.0f * scale);
  // Code as large as the body text. ImGui sizes a font by its ascent + descent, and JetBrains
  // Mono's are tall for its letters: its x-height is 550 of 1320 such units, DejaVu Sans's 1120 of
  // 2384, so 18 px of the one has the letters of 16 px of the other (at 15 px code read as a
  // footnote).
  const bool jetbrains = std::filesystem::exists(find_font(THREADLAB_FONT_MONO));
  fonts.mono =
      load(THREADLAB_FONT_MONO, (jetbrains ? 18.0f : 16.0f) * scale, THREADLAB_FONT_MONO_FALLBACK);
  if (fonts.heading == nullptr) fonts.heading = fonts.body;
  if (fonts.mono == nullptr) fonts.mono = fonts.body;
  if (fonts.bold == nullptr) fonts.bold = fonts.body;
  io.FontDefault = fonts.body;

  // A fresh style each time: ScaleAllSizes multiplies, so scaling the old one would compound.
  ImGuiStyle style;
  const bool high_contrast = theme == classroom::Theme::kHighContrast;
  if (high_contrast) {
    style_high_contrast(style);
  } else {
    style_dark(style);
  }
  current_palette = high_contrast ? kHighContrastPalette : kDarkPalette;
  style.WindowRounding = 4.0f;
  style.ChildRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowPadding = {10, 10};
  style.FramePadding = {6, 4};
  style.ItemSpacing = {8, 6};
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  return fonts;
}

}  // namespace tl::ui
