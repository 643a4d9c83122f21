#include "render/mapping_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <utility>

#include "render/gl_check.hpp"
#include "render/shader_sources.hpp"

namespace tl::render {
namespace {

std::uint32_t clamp_to_u32(std::uint64_t value) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(value, 0xFFFFFFFFu));
}

}  // namespace

Result<std::unique_ptr<MappingRenderer>> MappingRenderer::create(MappingRendererOptions options) {
  Result<ShaderProgram> program =
      ShaderProgram::graphics("mapping view", {shader_source::kMappingVert},
                              {shader_source::kPaletteGlsl, shader_source::kMappingFrag});
  if (!program) return program.error();
  Result<std::unique_ptr<OffscreenTarget>> target = OffscreenTarget::create(1, 1);
  if (!target) return target.error();
  // Range offsets must be multiples of the driver's alignment (a power of two, 16 to 256 bytes).
  GLint alignment = 16;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  const std::uint64_t align_records = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::max(alignment, 1)) / sizeof(TraceRecord));
  std::uint64_t per_binding = max_records_per_binding();
  if (options.max_records_per_binding != 0) {
    per_binding = std::min(per_binding, options.max_records_per_binding);
    per_binding = std::max(align_records, per_binding / align_records * align_records);
  }
  auto renderer = std::unique_ptr<MappingRenderer>(
      new MappingRenderer(std::move(*program), std::move(*target), per_binding, align_records));
  TL_RETURN_IF_ERROR(check_gl("creating the mapping renderer"));
  return renderer;
}

MappingRenderer::MappingRenderer(ShaderProgram program, std::unique_ptr<OffscreenTarget> target,
                                 std::uint64_t records_per_binding,
                                 std::uint64_t binding_alignment_records)
    : program_(std::move(program)),
      target_(std::move(target)),
      records_per_binding_(records_per_binding),
      binding_alignment_records_(binding_alignment_records) {
  glGenVertexArrays(1, &vertex_array_);
  const TraceRecord zero{};
  glGenBuffers(1, &empty_records_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, empty_records_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(zero), &zero, GL_STATIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

MappingRenderer::~MappingRenderer() {
  if (empty_records_ != 0) glDeleteBuffers(1, &empty_records_);
  if (vertex_array_ != 0) glDeleteVertexArrays(1, &vertex_array_);
}

Status MappingRenderer::render(const TraceBuffer& trace, const MappingView& view, Viewport size) {
  TL_RETURN_IF_ERROR(target_->resize(size.width, size.height));
  const MappingLayout& layout = view.layout;
  if (layout.cells() > kMaxLayoutCells) {
    return invalid_argument("the mapping view draws at most 2^32 - 1 cells");
  }
  if (layout.columns == 0) return invalid_argument("a mapping layout needs at least one column");
  if (!(view.transform.cell_pixels > 0)) {
    return invalid_argument("the zoom must be positive (pixels per cell)");
  }
  clear_gl_errors();
  target_->bind();
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(kBackgroundColor.r, kBackgroundColor.g, kBackgroundColor.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);

  const ShaderTransform transform = shader_transform(view.transform);
  const auto columns = clamp_to_u32(layout.columns);
  const std::uint64_t record_count = std::min<std::uint64_t>(trace.count(), layout.elements);
  program_.use();
  program_.set_vec2("u_viewport", static_cast<float>(size.width), static_cast<float>(size.height));
  program_.set_vec2("u_origin", transform.origin_x, transform.origin_y);
  program_.set_float("u_cells_per_pixel", transform.cells_per_pixel);
  program_.set_float("u_cell_pixels", static_cast<float>(view.transform.cell_pixels));
  program_.set_float("u_viewport_height", static_cast<float>(size.height));
  program_.set_float("u_layout_columns", static_cast<float>(columns));
  program_.set_uint("u_columns", columns);
  program_.set_uint("u_elements", clamp_to_u32(layout.elements));
  program_.set_uint("u_cells", clamp_to_u32(layout.cells()));
  program_.set_uint("u_record_count", clamp_to_u32(record_count));
  program_.set_int("u_color_by", static_cast<int>(view.color_by));
  program_.set_uint("u_threads_per_block", clamp_to_u32(view.launch.threads_per_block()));
  program_.set_uint("u_warp_size", std::max(view.warp_size, 1u));
  program_.set_int("u_highlight_enabled", view.highlighted_cell.has_value() ? 1 : 0);
  program_.set_uint("u_highlight_cell", clamp_to_u32(view.highlighted_cell.value_or(0)));
  const bool marks = view.marks != nullptr && view.marks->marked() > 0;
  program_.set_int("u_marks_enabled", marks ? 1 : 0);
  program_.set_uint("u_mark_cells", marks ? clamp_to_u32(view.marks->cell_count()) : 0u);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, marks ? view.marks->gl_buffer() : empty_records_);
  program_.set_int("u_grid_lines", view.grid_lines ? 1 : 0);
  program_.set_float("u_grid_line_min_cell_pixels", kGridLineMinCellPixels);
  program_.set_int("u_block_lines", view.block_lines ? 1 : 0);
  program_.set_float("u_block_line_min_cell_pixels", kBlockLineMinCellPixels);
  glBindVertexArray(vertex_array_);

  // One pass per range of records that a single binding can hold; each pass draws only the rows its
  // cells occupy and owns the cells [begin, end). Idle threads ride along with the last pass. The
  // binding also reaches one row back, so that the block lines along a pass's first cells see their
  // upper and left neighbours, as they do when one binding covers everything.
  const std::uint64_t cells = layout.cells();
  const std::uint64_t align = binding_alignment_records_;
  std::uint64_t lookback = layout.columns;
  std::uint64_t cells_per_pass = records_per_binding_;
  if (lookback + align <= records_per_binding_ / 2) {
    cells_per_pass = records_per_binding_ - lookback - align;
  } else {
    lookback = 0;  // rows too long to look back over: block lines may miss at pass seams
  }
  for (std::uint64_t begin = 0; begin < cells; begin += cells_per_pass) {
    const bool last = begin + cells_per_pass >= layout.elements;
    const std::uint64_t end = last ? cells : begin + cells_per_pass;
    const std::uint64_t first_record = (begin > lookback ? begin - lookback : 0) / align * align;
    const std::uint64_t records_end = std::min(record_count, begin + cells_per_pass);
    if (first_record < records_end) {
      glBindBufferRange(
          GL_SHADER_STORAGE_BUFFER, 0, trace.gl_buffer(),
          static_cast<GLintptr>(first_record * sizeof(TraceRecord)),
          static_cast<GLsizeiptr>((records_end - first_record) * sizeof(TraceRecord)));
    } else {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, empty_records_);
    }
    program_.set_uint("u_cell_begin", static_cast<std::uint32_t>(begin));
    program_.set_uint("u_cell_end", static_cast<std::uint32_t>(end));
    program_.set_uint("u_record_begin", static_cast<std::uint32_t>(first_record));
    program_.set_uint("u_record_end",
                      static_cast<std::uint32_t>(std::max(first_record, records_end)));
    program_.set_float("u_row_begin", static_cast<float>(begin / columns));
    program_.set_float("u_row_end", static_cast<float>((end + columns - 1) / columns));
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    if (last) break;
  }

  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return check_gl("drawing the mapping view");
}

}  // namespace tl::render
