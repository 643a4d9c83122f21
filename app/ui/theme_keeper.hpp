#pragma once
// The fonts and style follow presenter mode and the theme. A change of scale rebuilds the font
// atlas at the new size (sharp text), never a scaled bitmap; it happens between frames, with the
// ImGui OpenGL backend initialised.

#include "classroom_state.hpp"
#include "theme.hpp"

namespace tl::ui {

class ThemeKeeper {
 public:
  // Loads the fonts for `base_scale` (the monitor's); call before the backend builds its texture.
  ThemeKeeper(float base_scale, classroom::Theme theme);
  [[nodiscard]] const Fonts& fonts() const { return fonts_; }
  // Before a frame's NewFrame: rebuilds fonts and style when presenter mode or the theme changed.
  void follow(const ClassroomState& classroom);

 private:
  void apply(float factor, classroom::Theme theme);
  float base_scale_;
  float factor_ = 0;
  classroom::Theme theme_ = classroom::Theme::kDark;
  Fonts fonts_;
};

}  // namespace tl::ui
