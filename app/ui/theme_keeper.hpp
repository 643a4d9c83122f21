#pragma once
// The fonts and style follow presenter mode and the theme. A change of scale rebuilds the font
// atlas at the new size (sharp text), never a scaled bitmap; it happens between frames, with the
// ImGui OpenGL backend initialised.

#include "classroom_state.hpp"
#include "theme.hpp"

namespace tl::ui {

// The largest UI scale a window of this size can lay out: the lesson workspace needs about 600
// scale-1 pixels of height (the mapping view's least height, a plot, the bars) and 800 of width.
// Presenter mode needs less height, 560: the lesson column shows the current step alone, the
// device's table and the advanced controls are hidden, and the mapping view gives the plot the
// room beyond its least height (lesson_layout.cpp); so a 720p projector draws 1.25×, not the
// desk's 1.125×, and 1080p 1.875×, each with a plot of six lines or more. Past the limit a larger
// scale would only push panels off the window or shrink the plot below reading. Rounded down to an
// eighth so that resizing the window rebuilds the fonts only now and then. 0 for an unknown size
// (no limit).
inline constexpr float kLeastHeightAtScale1 = 600.0f;
inline constexpr float kPresenterLeastHeightAtScale1 = 560.0f;
inline constexpr float kLeastWidthAtScale1 = 800.0f;
[[nodiscard]] float max_scale_for_window(float width, float height, bool presenting = false);

class ThemeKeeper {
 public:
  // Loads the fonts for `base_scale` (the monitor's, or --scale); call before the backend builds
  // its texture.
  ThemeKeeper(float base_scale, classroom::Theme theme);
  [[nodiscard]] const Fonts& fonts() const { return fonts_; }
  // Before a frame's NewFrame: rebuilds fonts and style when presenter mode, the theme or the scale
  // the window allows changed. The scale drawn is base × presenter factor, at most
  // max_scale_for_window(display, presenting).
  void follow(const ClassroomState& classroom, float display_width, float display_height);
  // Another base scale (the layout tests walk several in one process); applied at the next follow.
  void set_base_scale(float base_scale) { base_scale_ = base_scale; }
  // The scale the fonts are drawn at now, and the one asked for (larger where the window limits).
  [[nodiscard]] float drawn_scale() const { return drawn_; }
  [[nodiscard]] float asked_scale() const { return asked_; }
  [[nodiscard]] float base_scale() const { return base_scale_; }

 private:
  void apply(float scale, classroom::Theme theme);
  float base_scale_;
  float drawn_ = 0;
  float asked_ = 0;
  classroom::Theme theme_ = classroom::Theme::kDark;
  Fonts fonts_;
};

}  // namespace tl::ui
