#include "theme_keeper.hpp"

#include <backends/imgui_impl_opengl3.h>

namespace tl::ui {

ThemeKeeper::ThemeKeeper(float base_scale, classroom::Theme theme) : base_scale_(base_scale) {
  apply(1.0f, theme);
}

void ThemeKeeper::follow(const ClassroomState& classroom) {
  const float factor = classroom.scale_factor();
  const classroom::Theme theme = classroom.shown_theme();
  if (factor == factor_ && theme == theme_) return;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  apply(factor, theme);
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void ThemeKeeper::apply(float factor, classroom::Theme theme) {
  fonts_ = setup_theme(base_scale_ * factor, theme);
  factor_ = factor;
  theme_ = theme;
}

}  // namespace tl::ui
