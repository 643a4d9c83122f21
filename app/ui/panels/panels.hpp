#pragma once
// One function per panel, each in its own file. Panels draw AppState and call AppController
// commands; they compute nothing themselves.

#include "app_controller.hpp"
#include "theme.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui {

void draw_lesson_panel(AppController& controller, const Fonts& fonts);
// The launch panel's fields and notes (they scroll), the timed run's table under them (it
// scrolls on its own, so its rows are not pushed out of sight by a lesson's many fields: ui_root
// gives it the height it took last frame, up to a share of the panel), and its footer with the
// configuration and the Launch button (it stays put): ui_root gives the footer this height.
void draw_launch_panel(AppController& controller, const Fonts& fonts);
void draw_launch_report(AppController& controller);
void draw_launch_footer(AppController& controller, const Fonts& fonts);
float launch_footer_height(const Fonts& fonts);
// Under the timed run's table: the switch that reads hardware counters with each launch, and the
// counters read, or why there are none (counters_section.cpp).
void draw_counters_section(AppController& controller);
// The grid of blocks; `titled` where no tab above names it (beside the mapping view).
void draw_grid_panel(AppController& controller, const Fonts& fonts, bool titled = false);
void draw_occupancy_panel(AppController& controller, const Fonts& fonts);
// The last timed run's kernels on the device's roofline (core/plot/roofline.hpp).
void draw_roofline_panel(AppController& controller, const Fonts& fonts);
void draw_mapping_panel(AppController& controller, const Fonts& fonts);
void draw_timing_panel(AppController& controller, const Fonts& fonts);
// An emulator note's headline in the warning colour, its reason on hover (timing_panel.cpp):
// the timing panel and the step bar say once where the emulator differs from a GPU.
void draw_emulator_note(const lessons::EmulatorNote& note);
// The width draw_emulator_note takes on its line.
float emulator_note_width(const lessons::EmulatorNote& note);
void draw_sm_timeline_panel(AppController& controller, const Fonts& fonts);
// The lesson's kernels' memory accesses, per source line, and one warp's request of the selected
// line drawn onto sectors or banks (memory_panel.cpp).
void draw_memory_panel(AppController& controller, const Fonts& fonts);
void draw_compiled_panel(AppController& controller, const Fonts& fonts);
// The Compiled tab's listing (compiled_panel.cpp), also the Lab's: a SASS / PTX switch (and Side by
// side, for a lesson's kernels), then the source beside the chosen listing, `height` tall (0: to
// the bottom of the window), a source line lighting its instructions and back.
void draw_compiled_listing(CompiledViewController& view, const Fonts& fonts, float height,
                           bool side_by_side);
void draw_device_panel(AppController& controller, const Fonts& fonts);
void draw_status_bar(AppController& controller, const Fonts& fonts);
// A markdown document as the lesson text draws it (the Lab's statements).
void draw_markdown(AppController& controller, const markdown::Document& document,
                   const Fonts& fonts);
// The Kernel Lab: the exercises and the statement, the editor, the verdict and the learner's
// mapping view, filling `size` at the cursor (lab_panel.cpp).
void draw_lab_workspace(AppController& controller, const Fonts& fonts, ImVec2 size);

// Classroom mode.
void draw_menu_bar(AppController& controller, const Fonts& fonts);
void draw_step_bar(AppController& controller, const Fonts& fonts);
void draw_step_text(AppController& controller, const Fonts& fonts);
// The demo step's caption in a strip of `size` at the cursor.
void draw_caption_strip(AppController& controller, const Fonts& fonts, ImVec2 size);
void draw_shortcuts_overlay(AppController& controller, const Fonts& fonts);
// Another lesson asked for while measurements run: cancel them and open it, or keep them.
void draw_switch_offer(AppController& controller, const Fonts& fonts);

}  // namespace tl::ui
