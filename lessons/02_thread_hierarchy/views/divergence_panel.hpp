#pragma once
// Lesson 2's warp-divergence tab: the first warps of a block at the divergence kernels' branch,
// lane by lane, for the branch rule the controls choose.

namespace tl::ui {
class LessonViewContext;
struct Fonts;
}  // namespace tl::ui

namespace tl::ui::thread_hierarchy_views {

void draw_divergence_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::thread_hierarchy_views
