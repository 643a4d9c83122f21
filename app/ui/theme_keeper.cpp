#include "theme_keeper.hpp"

#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>

namespace tl::ui {

float max_scale_for_window(float width, float height, bool presenting) {
  if (width <= 0 || height <= 0) return 0.0f;
  const float least_height = presenting ? kPresenterLeastHeightAtScale1 : kLeastHeightAtScale1;
  const float fits = std::min(height / least_height, width / kLeastWidthAtScale1);
  return std::max(1.0f, std::floor(fits * 8.0f) / 8.0f);
}

ThemeKeeper::ThemeKeeper(float base_scale, classroom::Theme theme) : base_scale_(base_scale) {
  apply(base_scale, theme);
  asked_ = base_scale;
}

void ThemeKeeper::follow(const ClassroomState& classroom, float display_width,
                         float display_height) {
  asked_ = base_scale_ * classroom.scale_factor();
  const float limit = max_scale_for_window(display_width, display_height, classroom.presenter);
  const float scale = limit > 0 ? std::min(asked_, limit) : asked_;
  const classroom::Theme theme = classroom.shown_theme();
  if (scale == drawn_ && theme == theme_) return;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  apply(scale, theme);
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void ThemeKeeper::apply(float scale, classroom::Theme theme) {
  fonts_ = setup_theme(scale, theme);
  drawn_ = scale;
  theme_ = theme;
}

}  // namespace tl::ui
