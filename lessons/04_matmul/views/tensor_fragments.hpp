#pragma once
// The matrix-multiply lesson's "Tensor fragments" tab: which lane holds which element of A, B and C
// for mma.sync.m16n8k16, drawn from the documented layout (lessons/04_matmul/matmul_tensor.hpp).

#include "lesson_view_context.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"
#include "theme.hpp"

namespace tl::ui::matmul_views {

void draw_tensor_fragments_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::matmul_views
