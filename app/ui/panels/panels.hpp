#pragma once
// One function per panel, each in its own file. Panels draw AppState and call AppController
// commands; they compute nothing themselves.

#include "app_controller.hpp"
#include "theme.hpp"

namespace tl::ui {

void draw_lesson_panel(AppController& controller, const Fonts& fonts);
void draw_launch_panel(AppController& controller, const Fonts& fonts);
void draw_grid_panel(AppController& controller, const Fonts& fonts);
void draw_occupancy_panel(AppController& controller, const Fonts& fonts);
void draw_mapping_panel(AppController& controller, const Fonts& fonts);
void draw_timing_panel(AppController& controller, const Fonts& fonts);
void draw_sm_timeline_panel(AppController& controller, const Fonts& fonts);
void draw_device_panel(AppController& controller, const Fonts& fonts);
void draw_status_bar(AppController& controller, const Fonts& fonts);
// Classroom mode.
void draw_menu_bar(AppController& controller, const Fonts& fonts);
void draw_step_bar(AppController& controller, const Fonts& fonts);
void draw_step_text(AppController& controller, const Fonts& fonts);
void draw_caption_overlay(AppController& controller, const Fonts& fonts);
void draw_shortcuts_overlay(AppController& controller, const Fonts& fonts);

}  // namespace tl::ui
