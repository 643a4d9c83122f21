#pragma once
// The matrix-multiply lesson's views: a click on an element of C picks it, and the "Element reads"
// tab draws what that element's thread reads (a row of A, a column of B, and for the tiled kernel
// the tiles loaded phase by phase).

#include <cstdint>

#include "compute/lessons/lesson.hpp"
#include "lesson_view_context.hpp"
#include "lessons/04_matmul/matmul_tiles.hpp"
#include "theme.hpp"

namespace tl::ui::matmul_views {

// The picked element of C and what its thread reads, kept in AppState::lesson_pick.
struct ElementReadsPick final : compute::LessonAttachment {
  lessons::MatmulElementReads reads;
  std::uint32_t phase = 0;  // the tiled kernel's phase shown
};

// The current pick, or null.
[[nodiscard]] const ElementReadsPick* current_pick(const AppState& state);

// Commands: pick element (row, col) of C (its reads come from the core's matmul_tiles), and show
// one phase of the tiled kernel's reads (clamped to the last).
void pick_element(LessonViewContext& context, std::uint64_t row, std::uint64_t col);
void show_phase(LessonViewContext& context, std::uint32_t phase);

void draw_element_reads_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::matmul_views
